// The docstrings of the public types point at docs/contract.md (shipped in the package), never at
// a document users do not have: every `docs/contract.md#<anchor>` in src/ names a heading there.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** GitHub's anchor of a Markdown heading: lower case, punctuation dropped, spaces as hyphens. */
const anchorOf = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\w\s-]/g, '')
    .replace(/\s/g, '-');

describe('docs/contract.md links in docstrings', () => {
  const anchors = new Set(
    readFileSync(join(ROOT, 'docs/contract.md'), 'utf8')
      .split('\n')
      .filter((l) => /^#{1,6} /.test(l))
      .map((l) => anchorOf(l.replace(/^#+ /, ''))),
  );
  const files = sources(join(ROOT, 'src'));

  it('name headings that exist', () => {
    const broken = files.flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/docs\/contract\.md#([\w-]+)/g)]
        .filter((m) => !anchors.has(m[1]!))
        .map((m) => `${relative(ROOT, file)}: #${m[1]}`),
    );
    expect(anchors.size).toBeGreaterThan(10);
    expect(broken).toEqual([]);
  });

  it('replace every reference to the seed document in @see tags', () => {
    const left = files
      .filter((file) => /@see seed\b/.test(readFileSync(file, 'utf8')))
      .map((file) => relative(ROOT, file));
    expect(left).toEqual([]);
  });
});

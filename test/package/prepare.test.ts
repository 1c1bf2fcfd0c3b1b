// The README's first command on a fresh clone (issue 43): `npm install` builds (package.json
// "prepare"), then `npx mockvideo serve` installs the clone into npx's cache, which runs "prepare"
// again. scripts/prepare.mjs skips that second build when dist/ was built by it from the same
// inputs. Here, on a small tree of its own: what counts as an input, and that a stale or missing
// stamp, or a build missing its last file, means "build".
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
// @ts-expect-error a plain script of scripts/, without types
import { inputsHash, isPrepared, STAMP } from '../../scripts/prepare.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const hashOf = inputsHash as (root: string) => string;
const prepared = isPrepared as (root: string) => boolean;

let root = '';
const write = (path: string, text: string) => {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
};

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'mockvideo-prepare-'));
  write('package.json', '{"name":"x"}');
  write('tsconfig.json', '{}');
  write('src/index.ts', 'export const a = 1;');
  write('dist/cli-bundle/main.js', '');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('scripts/prepare.mjs', () => {
  it('counts dist/ as built when the stamp holds the hash of the inputs as they are', () => {
    expect(prepared(root)).toBe(false);
    write(STAMP, `${hashOf(root)}\n`);
    expect(prepared(root)).toBe(true);
  });

  it('builds again after any input changes: a source, a script, package.json, a tsconfig, what npm installed', () => {
    for (const [path, text] of [
      ['src/index.ts', 'export const a = 2;'],
      ['scripts/build.mjs', ''],
      ['package.json', '{"name":"y"}'],
      ['tsconfig.build.json', '{}'],
      ['node_modules/.package-lock.json', '{}'],
      ['scenarios/new.json', '{}'],
    ]) {
      write(STAMP, hashOf(root));
      write(path!, text!);
      expect(prepared(root), path).toBe(false);
    }
  });

  it("ignores what the build writes: dist/ and src/'s generated files", () => {
    write(STAMP, hashOf(root));
    write('src/scenarios/scenario-names.generated.ts', 'export {};');
    write('dist/index.js', '');
    expect(prepared(root)).toBe(true);
  });

  it('builds again when the build is incomplete (its last file is missing)', () => {
    write(STAMP, hashOf(root));
    rmSync(join(root, 'dist/cli-bundle/main.js'));
    expect(prepared(root)).toBe(false);
  });

  it('is what package.json runs on install; npm run build starts with clean-dist, which drops the stamp (no source makes it)', () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(manifest.scripts.prepare).toBe('node scripts/prepare.mjs');
    expect(manifest.scripts.prebuild).toBe('node scripts/clean-dist.mjs');
  });
});

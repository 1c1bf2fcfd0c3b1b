import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const README = join(ROOT, 'README.md');
const DOCS = join(ROOT, 'docs');

const pages = [
  README,
  ...readdirSync(DOCS)
    .filter((file) => file.endsWith('.md'))
    .map((file) => join(DOCS, file)),
];
const shippedScenarios = readdirSync(join(ROOT, 'scenarios'))
  .filter((file) => file.endsWith('.json') && file !== 'scenario.schema.json')
  .map((file) => file.slice(0, -'.json'.length));

/** The relative link targets of a Markdown page (no scheme, no pure `#anchor`), without their anchor. */
function relativeLinks(text: string): string[] {
  const withoutCode = text.replace(/```[\s\S]*?```/g, '');
  return [...withoutCode.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((match) => match[1]!)
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target) && !target.startsWith('#'))
    .map((target) => target.split('#')[0]!);
}

describe('README (the landing page)', () => {
  const readme = readFileSync(README, 'utf8');

  it('stays under 20 KB: guides go to docs/', () => {
    expect(Buffer.byteLength(readme)).toBeLessThan(20_000);
  });

  it('opens with the two commands that work on a fresh clone: install and serve, and the tests', () => {
    const firstBlock = /```sh\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
    expect(firstBlock).toMatch(/^npm install && npx mockvideo serve --scenario default /m);
    expect(firstBlock).toMatch(/^npm test /m);
  });

  it('names every shipped scenario, as the QA guide does', () => {
    expect(shippedScenarios.length).toBeGreaterThan(10);
    const qaGuide = readFileSync(join(DOCS, 'qa-and-scenarios.md'), 'utf8');
    for (const name of shippedScenarios) {
      expect(readme, name).toContain(`\`${name}\``);
      expect(qaGuide, name).toContain(`| \`${name}\``);
    }
  });
});

describe('links between README.md and docs/', () => {
  it.each(pages.map((page) => [relative(ROOT, page), page]))(
    'every relative link of %s points at a file of the repository',
    (_name, page) => {
      const broken = relativeLinks(readFileSync(page, 'utf8'))
        .map((target) => relative(ROOT, join(dirname(page), decodeURIComponent(target))))
        .filter((target) => !existsSync(join(ROOT, target)));
      expect(broken).toEqual([]);
    },
  );

  it('every guide in docs/ is linked from the README or from another guide', () => {
    const linked = new Set(
      pages.flatMap((page) =>
        relativeLinks(readFileSync(page, 'utf8')).map((target) => relative(ROOT, join(dirname(page), target))),
      ),
    );
    const guides = pages.filter((page) => page !== README).map((page) => relative(ROOT, page));
    expect(guides.filter((guide) => !linked.has(guide))).toEqual([]);
  });
});

// The CLI bundle (scripts/bundle-cli.mjs) carries the code of a few packages (the small ones every
// start loads): their licences ship beside it, in THIRD-PARTY-LICENSES.txt.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const BUNDLE = new URL('../../dist/cli-bundle/', import.meta.url);

describe('the CLI bundle', () => {
  it('names every package whose code it holds, with its licence, in THIRD-PARTY-LICENSES.txt', () => {
    const modules = JSON.parse(readFileSync(new URL('modules.json', BUNDLE), 'utf8')) as Record<string, string[]>;
    const packages = new Set(
      Object.values(modules)
        .flat()
        .map((input) => /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input)?.[1])
        .filter((name): name is string => name !== undefined),
    );
    const licences = readFileSync(new URL('THIRD-PARTY-LICENSES.txt', BUNDLE), 'utf8');
    const named = new Set([...licences.matchAll(/^((?:@[^/\s]+\/)?[^@\s]+)@\d+\.\d+\.\d+$/gm)].map((m) => m[1]));
    // fast-json-stable-stringify is among them, so the check reads something.
    expect(packages.has('fast-json-stable-stringify')).toBe(true);
    expect([...packages].filter((name) => !named.has(name))).toEqual([]);
    expect(licences).toMatch(/MIT|ISC/);
  });
});

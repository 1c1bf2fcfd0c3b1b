// The CommonJS build (dist/cjs, written by scripts/build-cjs.mjs) as Node's own require reads it:
// `require('mockvideo')` resolves there through the exports map, nothing in it holds import.meta or
// a dynamic import() (Jest's CommonJS mode refuses both), and paths computed from the module's
// location are those of the ES build. test/package/pack.test.ts runs it under Jest from the tarball.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CJS = join(ROOT, 'dist/cjs');
const require = createRequire(join(ROOT, 'package.json'));

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? walk(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}

describe.skipIf(!existsSync(CJS))('the CommonJS build', () => {
  it('resolves for require() of each entry, with CommonJS types beside it', () => {
    for (const [entry, file] of [
      ['mockvideo', 'index'],
      ['mockvideo/node', 'node'],
      ['mockvideo/contract', 'contract/index'],
    ] as const) {
      expect(relative(ROOT, require.resolve(entry))).toBe(`dist/cjs/${file}.js`);
      expect(existsSync(join(CJS, `${file}.d.ts`)), `${file}.d.ts`).toBe(true);
    }
    expect(JSON.parse(readFileSync(join(CJS, 'package.json'), 'utf8'))).toEqual({ type: 'commonjs' });
  });

  it('holds no import.meta and no dynamic import()', () => {
    const offending = walk(CJS)
      .filter((file) => file.endsWith('.js'))
      .filter((file) => /\bimport\.meta\b|\bimport\(/.test(readFileSync(file, 'utf8')))
      .map((file) => relative(ROOT, file));
    expect(offending).toEqual([]);
  });

  it('serves the shipped scenarios through msw, and finds the scenarios folder where the ES build does', async () => {
    const { createHandlers, scenarioNames } = require('mockvideo') as typeof import('../../src/index.js');
    const { setupServer } = require('msw/node') as typeof import('msw/node');
    const server = setupServer(...createHandlers({ scenario: 'empty-ad-config' }));
    server.listen({ onUnhandledRequest: 'error' });
    try {
      const body = (await (await fetch('https://api.example.com/api/g1/ad_config?ref=')).json()) as { data: unknown };
      expect(body.data).toEqual({});
    } finally {
      server.close();
    }
    expect(scenarioNames).toContain('gallery');
    const commonjs = require(join(CJS, 'storage/scenario-files.js')) as { SHIPPED_SCENARIOS_DIR: string };
    const esm = (await import('../../dist/storage/scenario-files.js' as string)) as { SHIPPED_SCENARIOS_DIR: string };
    expect(commonjs.SHIPPED_SCENARIOS_DIR).toBe(esm.SHIPPED_SCENARIOS_DIR);
    expect(commonjs.SHIPPED_SCENARIOS_DIR).toBe(join(ROOT, 'scenarios'));
  });
});

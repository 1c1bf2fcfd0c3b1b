// The downloads (placeholder images, plugin packages) are a lazy `import()` of the encoders (issue
// 31): they must still answer from each build a user loads, here the CommonJS one (dist/cjs, where
// scripts/build-cjs.mjs turns the lazy import into a lazy require and inlines fast-png, which ships
// ES modules only) and the ES one (dist/lib, scripts/bundle-lib.mjs), through msw's `getResponse` in a fresh Node process, as a test
// file would. (The browser bundle and the CLI's bundle answer them in the shared operations suite.)
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** What a fresh process that loads mockvideo with `load` answers to a PNG, a JPEG and a provider package: `[status, content-type, first bytes as hex]` each. */
function downloads(load: string, type: 'commonjs' | 'module'): unknown {
  const script = `
    const { createHandlers } = ${load};
    const { getResponse } = await import('msw');
    const handlers = createHandlers();
    const answers = [];
    for (const path of ['/__mockvideo/media/icon/a.png?size=16x16', '/__mockvideo/media/thumb/b.jpg?size=16x16', '/__mockvideo/apk/c.apk']) {
      const response = await getResponse(handlers, new Request('http://127.0.0.1' + path));
      const bytes = new Uint8Array(await response.arrayBuffer());
      answers.push([response.status, response.headers.get('content-type'), Buffer.from(bytes.slice(0, 4)).toString('hex')]);
    }
    process.stdout.write(JSON.stringify(answers));`;
  const args =
    type === 'commonjs'
      ? ['-e', `(async () => {${script}})().catch((e) => { console.error(e); process.exit(1); })`]
      : ['--input-type=module', '-e', script];
  return JSON.parse(execFileSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8' }));
}

const EXPECTED = [
  [200, 'image/png', '89504e47'],
  [200, 'image/jpeg', 'ffd8ffe0'],
  [200, expect.stringMatching(/^application\//), '504b0304'],
];

describe.skipIf(!existsSync(`${ROOT}dist/cjs/index.js`))('downloads from the lazy encoder chunk', () => {
  it('answer from the CommonJS build (require)', () => {
    expect(downloads("require('./dist/cjs/index.js')", 'commonjs')).toEqual(EXPECTED);
  });

  it('answer from the ES module build (import)', () => {
    expect(downloads("await import('./dist/lib/index.js')", 'module')).toEqual(EXPECTED);
  });
});

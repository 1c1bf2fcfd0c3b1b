import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { getResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { fuzzAnswer, fuzzHandlers } from '../../src/arbitraries.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DEVICE = `_sdevid=${'a'.repeat(64)}`;
const get = async (handlers: ReturnType<typeof fuzzHandlers>, url: string) =>
  (await getResponse(handlers, new Request(url)))!;

/** The packages a built entry of dist/ loads, statically or lazily. */
async function packagesOf(entry: string): Promise<string[]> {
  const result = await build({
    entryPoints: [join(ROOT, 'dist', entry)],
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    splitting: true,
    outdir: join(ROOT, '.fuzz-graph'),
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  return [
    ...new Set(
      Object.values(result.metafile.inputs).flatMap((input) =>
        input.imports.filter((i) => i.external).map((i) => i.path),
      ),
    ),
  ];
}

describe('fuzzHandlers', () => {
  it("answers each device's calls with the bytes and case of fuzzAnswer", async () => {
    const handlers = fuzzHandlers({ seed: 42 });
    for (const call of [1, 2, 3]) {
      const response = await get(handlers, `http://x/api/g1/localplay/recomm?ref=&${DEVICE}`);
      expect(response.headers.get('x-mockvideo-fuzz')).toBe(`42:localplay/recomm:${call}`);
      expect(await response.text()).toBe(fuzzAnswer(`42:localplay/recomm:${call}`).text);
    }
    // Another device starts at call 1.
    expect(
      (await get(handlers, `http://x/api/g1/localplay/recomm?_sdevid=${'b'.repeat(64)}`)).headers.get(
        'x-mockvideo-fuzz',
      ),
    ).toBe('42:localplay/recomm:1');
  });

  it('answers a fixed case every time for its operation, and goes on generating the others', async () => {
    const handlers = fuzzHandlers({ seed: 1, fuzzCase: '42:meta/plugin:7:beyond' });
    for (let i = 0; i < 2; i++)
      expect(await (await get(handlers, `http://x/api/g1/meta/plugin?${DEVICE}`)).text()).toBe(
        fuzzAnswer('42:meta/plugin:7:beyond').text,
      );
    expect((await get(handlers, `http://x/api/g1/meta/cp?${DEVICE}`)).headers.get('x-mockvideo-fuzz')).toBe(
      '42:meta/cp:1:beyond',
    );
    expect(() => fuzzHandlers({ seed: 1, fuzzCase: 'nope' })).toThrow('Cannot read fuzz case "nope"');
  });

  it('takes the options of serve --fuzz-*: integers, classes off, per device', async () => {
    const handlers = fuzzHandlers({ seed: 42, integers: 53, exclude: ['title-long'], perDevice: true });
    const response = await get(handlers, `http://x/api/g1/meta/setting?${DEVICE}`);
    const fuzzCase = response.headers.get('x-mockvideo-fuzz')!;
    expect(fuzzCase).toMatch(/^42:meta\/setting:1:int53:device=[0-9a-f]{8}:off=title-long$/);
    expect(await response.text()).toBe(fuzzAnswer(fuzzCase).text);
    expect(() => fuzzHandlers({ seed: 1, exclude: ['nope'] })).toThrow('Unknown edge class "nope"');
    expect(() => fuzzHandlers({ seed: 1, integers: 16 as 32 })).toThrow('Cannot draw integers of 16 bits');
  });

  it('leaves fast-check to mockvideo/arbitraries: the main entry never loads it', async () => {
    expect(await packagesOf('arbitraries.js')).toContain('fast-check');
    for (const entry of ['index.js', 'cjs/index.js', 'node.js', 'contract/index.js'])
      expect(await packagesOf(entry)).not.toContain('fast-check');
  });
});

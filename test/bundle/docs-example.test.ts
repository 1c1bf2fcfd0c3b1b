// The example bundle of docs/bundles.md (the file docs/test-authors.md's test loads) is a bundle of
// this format, and replays as that page says: ad_config answered, meta/setting reset, meta/cp's
// provider without a link.
import { fileURLToPath } from 'node:url';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseBundle } from '../../src/bundle/bundle-schema.js';
import { bundleHandlers, onUnhandled } from '../../src/index.js';
import { markdownBlocks } from '../support/markdown-blocks.js';

const DOC = fileURLToPath(new URL('../../docs/bundles.md', import.meta.url));
const [example] = markdownBlocks(DOC).filter((block) => block.path === 'test/bundles/providers-crash.json');
const server = setupServer();
beforeAll(() => server.listen(onUnhandled('error')));
afterAll(() => server.close());

describe('the example bundle of docs/bundles.md', () => {
  it('is a mockvideo-bundle/1 and replays its reset and its answers in order', async () => {
    const bundle = parseBundle(JSON.parse(example!.code), 'docs/bundles.md');
    server.use(...bundleHandlers(bundle, { baseUrl: 'https://api.example.com' }));
    const get = (operation: string) => fetch(`https://api.example.com/api/g1/${operation}`);
    expect(await (await get('ad_config')).json()).toEqual({ data: {}, msg: 'OK', result: 1 });
    await expect(get('meta/setting')).rejects.toThrow();
    expect(((await (await get('meta/cp')).json()) as { data: Array<{ cp_link: string }> }).data[0]!.cp_link).toBe('');
  });
});

import { getResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHandlers } from '../../src/index.js';
import { Replayer, createReplayHandlers } from '../../src/node.js';
import { clientPath } from '../support/client.js';
import { DEFAULT_POLICY, matchKey } from '../../src/normalise/index.js';
import { RecordingWriter } from '../../src/storage/recording-writer.js';
import { recordSession, removeTempDirs, tempDir } from '../support/recordings.js';
import { OTHER_SESSION, clientPathWith } from '../support/sessions.js';
import { startUpstream } from '../support/upstream.js';

const BASE = 'https://api.example.com';
let dir: string;
let bodies: Buffer[];

beforeAll(async () => {
  const upstream = await startUpstream();
  ({ dir, bodies } = await recordSession(upstream.url, [
    clientPath('localplay/recomm'),
    clientPath('meta/setting'),
    clientPath('meta/setting'),
  ]));
  await upstream.close();
});

afterAll(() => removeTempDirs());

describe('replay as MSW handlers in a test (mockvideo/node)', () => {
  let server: ReturnType<typeof setupServer>;
  afterAll(() => server?.close());

  it('answers fetch with the recorded bytes (\\u0026 kept), sequences in order, fallback marked', async () => {
    const recorded = new Replayer(
      (await (await import('../../src/storage/read-recordings.js')).readRecordingDir(dir)).recordings,
      { match: 'strict' },
    );
    server = setupServer(
      ...createReplayHandlers(dir, {
        baseUrl: BASE,
        replayer: recorded,
        fallback: createHandlers({ scenario: 'default', baseUrl: BASE }),
      }),
    );
    server.listen({ onUnhandledRequest: 'error' });
    const recomm = await fetch(`${BASE}${clientPathWith('localplay/recomm', OTHER_SESSION)}`);
    const text = await recomm.text();
    expect(text).toBe(bodies[0]!.toString('utf8'));
    expect(text).toContain('\\u0026');
    expect(recomm.headers.get('x-mockvideo-match')).toBe('exact');
    const settings = [];
    for (let i = 0; i < 3; i++)
      settings.push(await (await fetch(`${BASE}${clientPathWith('meta/setting', OTHER_SESSION)}`)).text());
    expect(settings).toEqual([bodies[1]!.toString(), bodies[2]!.toString(), bodies[2]!.toString()]);
    const fallback = await fetch(`${BASE}${clientPath('meta/plugin')}`);
    expect(fallback.headers.get('x-mockvideo-match')).toBe('fallback');
    expect((await fallback.json()).msg).toBe('OK');
    expect(recorded.unused()).toEqual([]);
  });

  it('a folder larger than its response cache (8 MiB): every recording is served, those beyond the cache read from their files', async () => {
    const folder = tempDir();
    const writer = new RecordingWriter(folder);
    const bodyOf = (i: number) =>
      `{"data":[{"id":"p${i}","pad":"${String(i % 10).repeat(400_000)}"}],"msg":"OK","result":1}`;
    for (let i = 0; i < 24; i++) {
      const query: Array<[string, string]> = [['_region', `R${i}`]];
      await writer.write({
        operation: 'meta/cp',
        matchKey: matchKey('GET', 'meta/cp', query, DEFAULT_POLICY),
        recordedAt: '2026-11-23T00:00:00.000Z',
        request: { method: 'GET', path: '/api/g1/meta/cp', query, headers: {} },
        response: { status: 200, headers: { 'content-type': 'application/json; charset=utf-8' }, body: bodyOf(i) },
      });
    }
    await writer.flush();
    const handlers = createReplayHandlers(folder, { match: 'strict' });
    for (const i of [0, 23, 12]) {
      const answer = await getResponse(handlers, new Request(`${BASE}/api/g1/meta/cp?_region=R${i}`));
      expect(answer?.headers.get('x-mockvideo-match')).toBe('exact');
      expect(await answer!.text()).toBe(bodyOf(i));
    }
  });

  it('refuses a folder it cannot read, naming it', () => {
    expect(() => createReplayHandlers('/nonexistent-folder-for-mockvideo-test')).toThrow(
      /\[mockvideo\] Cannot read the recording folder/,
    );
  });
});

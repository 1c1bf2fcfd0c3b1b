import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHandlers } from '../../src/index.js';
import { Replayer, createReplayHandlers } from '../../src/node.js';
import { clientPath } from '../support/client.js';
import { recordSession, removeTempDirs } from '../support/recordings.js';
import { OTHER_SESSION, clientPathWith } from '../support/sessions.js';
import { startUpstream } from '../support/upstream.js';

const BASE = 'https://api.example.com';
let dir: string;
let bodies: Buffer[];

beforeAll(async () => {
  const upstream = await startUpstream();
  ({ dir, bodies } = await recordSession(upstream.url, [clientPath('localplay/recomm'), clientPath('meta/setting'), clientPath('meta/setting')]));
  await upstream.close();
});

afterAll(() => removeTempDirs());

describe('replay as MSW handlers in a test (mockvideo/node)', () => {
  let server: ReturnType<typeof setupServer>;
  afterAll(() => server?.close());

  it('answers fetch with the recorded bytes (\\u0026 kept), sequences in order, fallback marked', async () => {
    const recorded = new Replayer((await import('../../src/storage/recordings.js')).readRecordingDir(dir).recordings, { match: 'strict' });
    server = setupServer(...createReplayHandlers(dir, { baseUrl: BASE, replayer: recorded, fallback: createHandlers({ scenario: 'default', baseUrl: BASE }) }));
    server.listen({ onUnhandledRequest: 'error' });
    const recomm = await fetch(`${BASE}${clientPathWith('localplay/recomm', OTHER_SESSION)}`);
    const text = await recomm.text();
    expect(text).toBe(bodies[0]!.toString('utf8'));
    expect(text).toContain('\\u0026');
    expect(recomm.headers.get('x-mockvideo-match')).toBe('exact');
    const settings = [];
    for (let i = 0; i < 3; i++) settings.push(await (await fetch(`${BASE}${clientPathWith('meta/setting', OTHER_SESSION)}`)).text());
    expect(settings).toEqual([bodies[1]!.toString(), bodies[2]!.toString(), bodies[2]!.toString()]);
    const fallback = await fetch(`${BASE}${clientPath('meta/plugin')}`);
    expect(fallback.headers.get('x-mockvideo-match')).toBe('fallback');
    expect((await fallback.json()).msg).toBe('OK');
    expect(recorded.unused()).toEqual([]);
  });

  it('refuses a folder it cannot read, naming it', () => {
    expect(() => createReplayHandlers('/nonexistent-folder-for-mockvideo-test')).toThrow(/\[mockvideo\] Cannot read the recording folder/);
  });
});

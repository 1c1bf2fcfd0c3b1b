import { describe, expect, it } from 'vitest';
import { startCli } from '../support/cli.js';
import { clientPath } from '../support/client.js';
import { recordSession, tempDir } from '../support/recordings.js';
import { useUpstream } from '../support/upstream.js';

const upstream = useUpstream();

describe('the journal and admin API in record and replay modes', () => {
  it('record: health names the mode and upstream; the journal holds the proxied requests, token redacted', async () => {
    const out = tempDir();
    const recorder = await startCli(['record', '--upstream', upstream.url, '--out', out, '--port', '0']);
    try {
      await fetch(`${recorder.url}${clientPath('meta/cp')}`);
      expect(await (await fetch(`${recorder.url}/__mockvideo/health`)).json()).toMatchObject({
        mode: 'record',
        upstream: upstream.url,
        recordings: out,
      });
      const { requests } = await (await fetch(`${recorder.url}/__mockvideo/requests`)).json();
      expect(requests).toEqual([expect.objectContaining({ operation: 'meta/cp', status: 200, findings: [] })]);
      expect(requests[0].query._st).toEqual(['<SERVICE_TOKEN>']);
    } finally {
      await recorder.stop('SIGINT');
    }
  });

  it('replay: the journal records the match kind, and the fallback scenario can be switched live', async () => {
    const { dir } = await recordSession(upstream.url, [clientPath('meta/cp')]);
    const replay = await startCli(['replay', dir, '--port', '0', '--fallback-scenario', 'default', '--no-watch']);
    try {
      await fetch(`${replay.url}${clientPath('meta/cp')}`);
      const { requests } = await (await fetch(`${replay.url}/__mockvideo/requests`)).json();
      expect(requests[0]).toMatchObject({ operation: 'meta/cp', match: 'exact' });
      await fetch(`${replay.url}/__mockvideo/scenario`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: '{"name":"empty-ad-config"}',
      });
      const missed = await fetch(`${replay.url}${clientPath('ad_config')}`);
      expect(missed.headers.get('x-mockvideo-match')).toBe('fallback');
      expect((await missed.json()).data).toEqual({});
    } finally {
      await replay.stop();
    }
  });
});

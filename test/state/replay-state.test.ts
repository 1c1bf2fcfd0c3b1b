import { afterEach, describe, expect, it } from 'vitest';
import { clientPath } from '../support/client.js';
import { startCli, type CliProcess } from '../support/cli.js';
import { recordSession } from '../support/recordings.js';
import { useUpstream } from '../support/upstream.js';

const upstream = useUpstream();
let server: CliProcess | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

describe('replayed sequences per client', () => {
  it('two devices interleaving each get the recordings of one key in recorded order; the step is in the header and the journal', async () => {
    // The fake service counts meta/setting calls in recommend_show_times_interval: two recordings of one key.
    const { dir } = await recordSession(upstream.url, [clientPath('meta/setting'), clientPath('meta/setting')]);
    server = await startCli(['replay', dir, '--port', '0']);
    const setting = async (device: string) => {
      const response = await fetch(
        `${server!.url}${clientPath('meta/setting').replace(/_sdevid=[0-9a-f]{64}/, `_sdevid=${device}`)}`,
      );
      return [(await response.json()).data.recommend_show_times_interval, response.headers.get('x-mockvideo-step')];
    };
    const [a, b] = ['a'.repeat(64), 'b'.repeat(64)];
    expect([await setting(a), await setting(b), await setting(a), await setting(b)]).toEqual([
      [1, '1/2'],
      [1, '1/2'],
      [2, '2/2'],
      [2, '2/2'],
    ]);
    const { requests } = await (await fetch(`${server.url}/__mockvideo/requests`)).json();
    expect(requests.map((r: { step: string }) => r.step)).toEqual(['1/2', '1/2', '2/2', '2/2']);
  });
});

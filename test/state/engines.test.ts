// Issue 18 through every engine of the Node host: per-device sequences, the step in the header and
// the journal, and the _ts finding by the server's clock, with the default engine (the routes in node:http) and with `--engine msw` (the generated MSW
// handlers in Express).
import { afterEach, describe, expect, it } from 'vitest';
import { clientPath } from '../support/client.js';
import { startCli, type CliProcess } from '../support/cli.js';
import { recordSession } from '../support/recordings.js';
import { useUpstream } from '../support/upstream.js';

const FROZEN = '2026-01-31T12:00:00Z';
const upstream = useUpstream();
let server: CliProcess | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

const asDevice = (operation: Parameters<typeof clientPath>[0], device: string) =>
  clientPath(operation).replace(/_sdevid=[0-9a-f]{64}/, `_sdevid=${device.repeat(64)}`);

describe.each(['routes', 'msw'])('--engine %s', (engine) => {
  it('serve: sequences per device, the step in header and journal, the _ts finding by --clock', async () => {
    server = await startCli([
      'serve',
      '--port',
      '0',
      '--scenario',
      'settings-twice',
      '--clock',
      FROZEN,
      '--engine',
      engine,
    ]);
    const seen = [];
    for (const device of ['a', 'b', 'a', 'b']) {
      const response = await fetch(`${server.url}${asDevice('meta/setting', device)}`);
      seen.push([
        (await response.json()).data.codec_level,
        response.headers.get('x-mockvideo-step'),
        response.headers.get('x-mockvideo-findings'),
      ]);
    }
    // clientPath sends the real time as _ts, far from the frozen clock: one finding each.
    expect(seen).toEqual([
      ['3', '1/2', '1'],
      ['3', '1/2', '1'],
      ['4', '2/2', '1'],
      ['4', '2/2', '1'],
    ]);
    const { requests } = await (await fetch(`${server.url}/__mockvideo/requests`)).json();
    expect(
      requests.map(
        (r: { step: string; findings: Array<{ rule: string }> }) => `${r.step} ${r.findings.map((f) => f.rule).join()}`,
      ),
    ).toEqual(Array.from({ length: 4 }, (_, i) => `${i < 2 ? '1/2' : '2/2'} ts-skew`));
  });

  it('replay: sequences per device, the step in header and journal, the _ts finding by --clock', async () => {
    const { dir } = await recordSession(upstream.url, [clientPath('meta/setting'), clientPath('meta/setting')]);
    server = await startCli(['replay', dir, '--port', '0', '--engine', engine, '--clock', FROZEN]);
    const seen = [];
    for (const device of ['a', 'b', 'a']) {
      const response = await fetch(`${server.url}${asDevice('meta/setting', device)}`);
      seen.push([response.headers.get('x-mockvideo-step'), response.headers.get('x-mockvideo-findings')]);
    }
    expect(seen).toEqual([
      ['1/2', '1'],
      ['1/2', '1'],
      ['2/2', '1'],
    ]);
    const { requests } = await (await fetch(`${server.url}/__mockvideo/requests`)).json();
    expect(requests.map((r: { step: string }) => r.step)).toEqual(['1/2', '1/2', '2/2']);
  });
});

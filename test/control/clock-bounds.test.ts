import { afterEach, describe, expect, it } from 'vitest';
import { runCli, startCli, type CliProcess } from '../support/cli.js';

let server: CliProcess | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

describe('the clock stays within the times it can read (issue 34, item 10)', () => {
  it('PUT /__mockvideo/clock {"frozen":999999999999999} is a 400 naming the bound, takes no effect, and /health keeps working', async () => {
    server = await startCli(['serve', '--port', '0']);
    const admin = (path: string, init?: RequestInit) => fetch(`${server!.url}/__mockvideo${path}`, init);
    const put = (body: unknown) =>
      admin('/clock', { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    for (const body of [
      { frozen: 999999999999999 },
      { offset: '+300000y' },
      { frozen: '9999-12-31T23:00:00Z', offset: '+1d' },
      { offset: -99999999999999 },
    ]) {
      const answer = await put(body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect((await answer.json()).error).toMatch(
        /outside the times a clock reads|too long a duration|outside 1970-01-01T00:00:00Z to 9999-12-31T23:59:59Z: nothing changed/,
      );
    }
    expect((await (await admin('/clock')).json()).mode).toBe('real');
    const health = await admin('/health');
    expect(health.status).toBe(200);
    expect((await health.json()).clock.mode).toBe('real');
  });

  it('--clock-offset +300000y and --clock 999999999999999 are refused with one line naming the flag', async () => {
    const offset = await runCli(['serve', '--port', '0', '--clock-offset', '+300000y']);
    expect(offset.code).not.toBe(0);
    expect(offset.stderr).toMatch(/--clock-offset \+300000y: "\+300000y" is too long a duration/);
    expect(offset.stderr).not.toMatch(/\n\s+at /);
    const frozen = await runCli(['serve', '--port', '0', '--clock', '999999999999999']);
    expect(frozen.code).not.toBe(0);
    expect(frozen.stderr).toMatch(/--clock 999999999999999: "999999999999999" is not a moment/);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMON_FIELDS, commonFields } from '../support/analytics-records.js';
import { startCli, type CliProcess } from '../support/cli.js';

const common = commonFields('v');
const valid = [
  { ...common, type: 'login_state_on_launch', result: 'success' },
  { ...common, type: 'page_view', page_name: 'player', package_from: 'com.example.gallery' },
  { ...common, type: 'click', target: 'videoplayer://com.example.streamly?action=playVideo&id=1', at: '1795322072123' },
  {
    ...common,
    type: 'play__start_succ',
    at: '1795322072123',
    video_type: 'local',
    duration: '120',
    played_all: 'false',
  },
  {
    ...common,
    type: 'play__completelast',
    at: '1795322072999',
    video_type: 'local',
    duration: '120',
    played_all: 'true',
  },
  { ...common, event: 'auto_login', module: 'account', append: '{"result":"success"}', st: 'token', _page: 'home' },
];

interface Listed {
  records: Array<{
    id: number;
    time: string;
    record: Record<string, string>;
    findings: Array<{ field: string; rule: string; message: string }>;
  }>;
}

let cli: CliProcess;
beforeAll(async () => {
  cli = await startCli(['serve', '--port', '0', '--analytics-path', '/log/collect']);
});
afterAll(async () => {
  await cli.stop();
});

const list = async () => (await (await fetch(`${cli.url}/__mockvideo/analytics`)).json()) as Listed;
const post = (path: string, body: string, type = 'application/json') =>
  fetch(`${cli.url}${path}`, { method: 'POST', body, headers: { 'content-type': type } });

describe('analytics sink', () => {
  it('accepts valid records of every kind as a JSON array, without findings, and lists them', async () => {
    await fetch(`${cli.url}/__mockvideo/analytics`, { method: 'DELETE' });
    const response = await post('/__mockvideo/analytics', JSON.stringify(valid));
    expect(response.status).toBe(200);
    expect(((await response.json()) as { accepted: number }).accepted).toBe(valid.length);
    const { records } = await list();
    expect(records.map((r) => r.record)).toEqual(valid);
    for (const r of records) {
      expect(r.findings).toEqual([]);
      expect(Number.isNaN(Date.parse(r.time))).toBe(false);
    }
  });

  it('accepts one JSON object and a form-encoded body, also on an --analytics-path', async () => {
    await fetch(`${cli.url}/__mockvideo/analytics`, { method: 'DELETE' });
    expect((await post('/log/collect', JSON.stringify(valid[0]))).status).toBe(200);
    expect(
      (
        await post(
          '/__mockvideo/analytics',
          new URLSearchParams(valid[1] as Record<string, string>).toString(),
          'application/x-www-form-urlencoded',
        )
      ).status,
    ).toBe(200);
    const { records } = await list();
    expect(records.map((r) => [r.record, r.findings])).toEqual([
      [valid[0], []],
      [valid[1], []],
    ]);
  });

  it('reports findings for broken records and keeps them', async () => {
    await fetch(`${cli.url}/__mockvideo/analytics`, { method: 'DELETE' });
    const broken = [
      { ...valid[2], at: '1795322072' },
      { type: 'page_view', page_name: 'p', package_from: 'q' },
      { ...common, type: 'swipe' },
    ];
    const answer = (await (await post('/__mockvideo/analytics', JSON.stringify(broken))).json()) as {
      records: Array<{ findings: Array<{ field: string; rule: string }> }>;
    };
    expect(answer.records[0]!.findings).toEqual([expect.objectContaining({ field: 'at', rule: 'milliseconds' })]);
    expect(answer.records[1]!.findings.map((f) => f.field)).toEqual([...COMMON_FIELDS]);
    expect(answer.records[2]!.findings).toEqual([expect.objectContaining({ field: 'type', rule: 'known-type' })]);
    const { records } = await list();
    expect(records).toHaveLength(3);
    expect(records[0]!.findings[0]!.message).toMatch(/milliseconds/);
  });

  it('answers 400 for a body that is neither JSON nor form-encoded, and keeps it with a finding', async () => {
    const response = await post('/__mockvideo/analytics', '{not json', 'text/plain');
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toMatch(/neither JSON nor form-encoded/);
    expect((await list()).records.at(-1)!.findings[0]!.rule).toBe('object');
  });
});

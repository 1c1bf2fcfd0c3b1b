import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATION_NAMES, type OperationName } from '../../src/contract/index.js';
import { startCli, type CliProcess } from '../support/cli.js';
import { CLIENT_COMMON_QUERY, clientPath } from '../support/client.js';
import { encodedForms, eventually, getBytes, recordingFiles, removeTempDirs, tempDir } from '../support/recordings.js';
import { OTHER_SESSION, clientPathWith } from '../support/sessions.js';
import { startUpstream, type Upstream } from '../support/upstream.js';

type Call = [OperationName, { is_from_gallery?: 'true' | 'false' }];
const CALLS: Call[] = [
  ...OPERATION_NAMES.map((op): Call => [op, {}]),
  ['localplay/diversion', { is_from_gallery: 'false' }],
  ['meta/setting', {}],
  ['meta/setting', {}],
];

let upstream: Upstream;
let dir: string;
const recorded = new Map<string, Buffer[]>();
let recorderOutput = '';
let recorderExit: number | null = null;
const sentPaths: string[] = [];

const label = ([op, extra]: Call) => `${op}${extra.is_from_gallery ? `?is_from_gallery=${extra.is_from_gallery}` : ''}`;

beforeAll(async () => {
  upstream = await startUpstream();
  dir = tempDir();
  const recorder = await startCli(['record', '--upstream', upstream.url, '--out', dir, '--port', '0']);
  for (const call of CALLS) {
    const path = clientPath(call[0], call[1]);
    sentPaths.push(path);
    const { status, body } = await getBytes(`${recorder.url}${path}`);
    expect(status).toBe(200);
    recorded.set(label(call), [...(recorded.get(label(call)) ?? []), body]);
  }
  recorderExit = await recorder.stop('SIGINT');
  recorderOutput = recorder.stdout();
});

afterAll(async () => {
  removeTempDirs();
  await upstream.close();
});

describe('record', () => {
  it('forwards every path and query string untouched (order, the repeated ref, encoding)', () => {
    expect(upstream.received).toEqual(sentPaths);
  });

  it('answers the client with the upstream body bytes unchanged (\\u0026 escapes included)', () => {
    expect(upstream.sent).toHaveLength(CALLS.length);
    const inOrder = CALLS.map(
      (call, i) => recorded.get(label(call))![CALLS.slice(0, i).filter((c) => label(c) === label(call)).length]!,
    );
    inOrder.forEach((body, i) => expect(body.equals(upstream.sent[i]!)).toBe(true));
    expect(recorded.get('localplay/recomm')![0]!.toString()).toContain('\\u0026');
  });

  it('writes one complete file per exchange, exits 0 on SIGINT and says how many it recorded', () => {
    const files = recordingFiles(dir);
    expect(files).toHaveLength(CALLS.length);
    for (const file of files) {
      expect(file.name).toMatch(
        /^(ad_config|meta-cp|meta-setting|meta-plugin|localplay-diversion|localplay-recomm)\/[0-9a-f]{12}-\d{3}\.json$/,
      );
      expect(file.text.endsWith('}\n')).toBe(true);
      const value = JSON.parse(file.text);
      expect(Object.keys(value)).toEqual([...Object.keys(value)].sort());
    }
    expect(files.filter((f) => f.name.startsWith('meta-setting/')).map((f) => f.name.slice(-9))).toEqual([
      '-000.json',
      '-001.json',
      '-002.json',
    ]);
    expect(recorderExit).toBe(0);
    expect(recorderOutput).toContain(`Recorded ${CALLS.length} exchanges`);
  });

  it('stores no token and no identifier, in any encoding; the token is written as <SERVICE_TOKEN>', () => {
    const secrets = CLIENT_COMMON_QUERY.filter(([name]) =>
      ['_st', '_sdevid', '_anoyid', '_cam', '_diordna', '_app_coop_md5'].includes(name),
    ).map(([, v]) => v);
    const cookie = 'made-up-session-cookie-value';
    for (const file of recordingFiles(dir)) {
      for (const secret of [...secrets, cookie])
        for (const form of encodedForms(secret)) expect(file.text, `${file.name} holds ${form}`).not.toContain(form);
      expect(file.text).toContain('"<SERVICE_TOKEN>"');
      expect(JSON.parse(file.text).response.headers['set-cookie']).toBe('session=<REDACTED>; Path=/');
    }
  });
});

describe('replay', () => {
  let replay: CliProcess;
  beforeAll(async () => {
    replay = await startCli(['replay', dir, '--port', '0']);
  });
  afterAll(async () => {
    await replay.stop('SIGINT');
  });

  it('returns byte-identical bodies to a client with a new _nonce, _ts, _st and identifiers', async () => {
    for (const call of CALLS.filter((c) => c[0] !== 'meta/setting')) {
      const { status, headers, body } = await getBytes(
        `${replay.url}${clientPathWith(call[0], OTHER_SESSION, call[1])}`,
      );
      expect(status).toBe(200);
      expect(headers.get('x-mockvideo-match')).toBe('exact');
      expect(headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(body.equals(recorded.get(label(call))![0]!), label(call)).toBe(true);
    }
  });

  it('serves several recordings of one key in recorded order, then repeats the last', async () => {
    const bodies = [];
    for (let i = 0; i < 4; i++)
      bodies.push((await getBytes(`${replay.url}${clientPathWith('meta/setting', OTHER_SESSION)}`)).body);
    const [first, second, third] = recorded.get('meta/setting')!;
    expect(bodies.map((b) => JSON.parse(b.toString()).data.recommend_show_times_interval)).toEqual([1, 2, 3, 3]);
    expect(
      bodies[0]!.equals(first!) && bodies[1]!.equals(second!) && bodies[2]!.equals(third!) && bodies[3]!.equals(third!),
    ).toBe(true);
  });

  it('logs the match kind of every request', async () => {
    expect(await eventually(replay.stdout, /meta\/cp .*match=exact/)).toMatch(/GET meta\/cp .* 200 {2}match=exact/);
  });
});

describe('serve --replay DIR', () => {
  it('serves the recordings like replay does', async () => {
    const serve = await startCli(['serve', '--replay', dir, '--port', '0']);
    try {
      const { headers, body } = await getBytes(`${serve.url}${clientPathWith('localplay/recomm', OTHER_SESSION)}`);
      expect(headers.get('x-mockvideo-match')).toBe('exact');
      expect(body.equals(recorded.get('localplay/recomm')![0]!)).toBe(true);
    } finally {
      await serve.stop('SIGINT');
    }
  });
});

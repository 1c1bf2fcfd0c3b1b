import { cpSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATION_NAMES } from '../../src/contract/index.js';
import type { DriftReport } from '../../src/drift/drift.js';
import { runCli } from '../support/cli.js';
import { CLIENT_COMMON_QUERY, clientPath } from '../support/client.js';
import { recordSession, recordingFiles, removeTempDirs, tempDir } from '../support/recordings.js';
import { deadUrl } from '../support/upstream.js';
import { startFakeService, type FakeService } from './fake-service.js';

/** A made-up token standing for the real one: it may go to --upstream only. */
const TOKEN = 'made-up-live-token-7f3a9c';
const IDENTITY = ['_sdevid', '_anoyid', '_cam', '_diordna', '_app_coop_md5'];
const DEVICE = CLIENT_COMMON_QUERY.find(([name]) => name === '_sdevid')![1];

const SESSION = [
  ...OPERATION_NAMES.map((op) => clientPath(op)),
  clientPath('localplay/diversion', { is_from_gallery: 'false' }),
  clientPath('meta/setting'),
];

let service: FakeService;
let session: string;
let queryFile: string;

beforeAll(async () => {
  service = await startFakeService();
  session = (await recordSession(service.url, SESSION)).dir;
  queryFile = join(tempDir('mockvideo-drift-'), 'live.query');
  // The real token and identifiers, as a user keeps them out of the repository.
  writeFileSync(
    queryFile,
    `# live values\n_st=${TOKEN}&${CLIENT_COMMON_QUERY.filter(([n]) => IDENTITY.includes(n))
      .map(([n, v]) => `${n}=${v}`)
      .join('&')}\n`,
  );
}, 30_000);

afterAll(async () => {
  removeTempDirs();
  await service.close();
});

const changesOff = () => Object.assign(service.changes, { addField: false, numberType: false, itemShape: false });
const structural = (report: DriftReport) =>
  report.targets.flatMap((t) =>
    t.differences.map((d) => ({
      operation: t.operation,
      path: d.path,
      recorded: d.recorded,
      live: d.live,
      kind: d.kind,
    })),
  );
const drift = (args: string[], env?: NodeJS.ProcessEnv) =>
  runCli(['drift', ...args], { timeoutMs: 30_000, ...(env ? { env } : {}) });

describe('drift --upstream URL RECORDING_DIR', () => {
  it('exits 0 when only values changed, and lists what varied between two live answers as noise', async () => {
    changesOff();
    const { code, stdout, stderr } = await drift([
      '--upstream',
      service.url,
      '--query-file',
      queryFile,
      '--json',
      session,
    ]);
    expect(stderr).toBe('');
    const report = JSON.parse(stdout) as DriftReport;
    expect(structural(report)).toEqual([]);
    expect(code).toBe(0);
    const noise = report.targets.flatMap((t) => t.noise.map((n) => `${t.operation} ${n.path}`));
    expect(noise).toEqual(
      expect.arrayContaining([
        'meta/plugin data[].updated_at',
        'meta/plugin data[].market_sign.nonce',
        'ad_config data.echo',
        'meta/setting data.recommend_show_times_interval',
      ]),
    );
  }, 30_000);

  it('reports exactly the structural changes (a field added, a number sent instead of text, an item shape) and exits 1', async () => {
    Object.assign(service.changes, { addField: true, numberType: true, itemShape: true });
    try {
      const { code, stdout } = await drift(['--upstream', service.url, '--query-file', queryFile, '--json', session]);
      expect(code).toBe(1);
      const report = JSON.parse(stdout) as DriftReport;
      expect(structural(report)).toEqual(
        [
          { operation: 'meta/setting', path: 'data.codec_level', recorded: 'string', live: 'number', kind: 'type' },
          { operation: 'meta/setting', path: 'data.new_flag', recorded: '—', live: 'number', kind: 'added' },
          { operation: 'localplay/recomm', path: 'data[].rank', recorded: '—', live: 'number', kind: 'added' },
        ].sort(
          (a, b) =>
            report.targets.findIndex((t) => t.operation === a.operation) -
            report.targets.findIndex((t) => t.operation === b.operation),
        ),
      );
      expect(report.targets.flatMap((t) => t.noise.map((n) => n.path))).toContain('data[].updated_at');

      const text = await drift(['--upstream', service.url, '--query-file', queryFile, session]);
      expect(text.code).toBe(1);
      expect(text.stdout).toMatch(
        /^meta\/setting {2}meta-setting\/[0-9a-f]{12}-000\.json \(\+1 more of this request\)$/m,
      );
      expect(text.stdout).toMatch(/^ {2}path +recorded +live +kind$/m);
      expect(text.stdout).toMatch(/^ {2}data\.codec_level +string +number +type$/m);
      expect(text.stdout).toMatch(/^ {2}data\[\]\.updated_at .* noise$/m);
      expect(text.stdout).toMatch(/^Drift: 3 difference\(s\) in 2 of \d+ request\(s\) compared with the live service/m);
    } finally {
      changesOff();
    }
  }, 30_000);

  it('sends the real token and identifiers to --upstream only, with fresh _nonce and _ts, and writes and prints none of them', async () => {
    const before = recordingFiles(session);
    const from = service.received.length;
    const { code, stdout, stderr } = await drift([
      '--upstream',
      service.url,
      '--query-file',
      queryFile,
      '--json',
      session,
    ]);
    expect(code).toBe(0);
    const sent = service.received.slice(from);
    expect(sent.length).toBe(2 * 7); // seven distinct recorded requests, each asked twice
    for (const target of sent) {
      const query = new URLSearchParams(target.split('?')[1]);
      expect(query.get('_st')).toBe(TOKEN);
      expect(query.get('_sdevid')).toBe(DEVICE);
      expect(target).not.toContain('REDACTED');
      expect(Math.abs(Number(query.get('_ts')) - Date.now() / 1000)).toBeLessThan(60);
    }
    expect(new Set(sent.map((t) => new URLSearchParams(t.split('?')[1]).get('_nonce'))).size).toBe(sent.length);
    // ad_config echoes the query (token included) and it varies: reported as noise, with the token redacted.
    expect(stdout).toContain('ad_config');
    expect(stdout + stderr).not.toContain(TOKEN);
    expect(stdout + stderr).not.toContain(DEVICE);
    expect(recordingFiles(session)).toEqual(before);
  }, 30_000);

  it('refuses to send anything when the real token is not given, naming where to give it (only the token: identifiers can be generated)', async () => {
    const from = service.received.length;
    const { code, stderr } = await drift(['--upstream', service.url, session]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/real value of _st, which .*--query-file.*MOCKVIDEO_ST/);
    expect(service.received.length).toBe(from);
  });

  it("runs with only the token: missing identifiers are generated in the seed's formats, and the report says so", async () => {
    const from = service.received.length;
    const { code, stdout } = await drift(['--upstream', service.url, session], { MOCKVIDEO_ST: TOKEN });
    expect(code).toBe(0);
    const sent = service.received.slice(from).map((t) => new URLSearchParams(t.split('?')[1]));
    expect(sent.length).toBe(2 * 7);
    const formats = {
      _sdevid: /^[0-9a-f]{64}$/,
      _anoyid: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
      _cam: /^[0-9a-f]{32}$/,
      _diordna: /^[0-9a-f]{32}$/,
      _app_coop_md5: /^[0-9a-f]{32}$/,
    };
    for (const query of sent) {
      expect(query.get('_st')).toBe(TOKEN);
      for (const [name, format] of Object.entries(formats)) expect(query.get(name)).toMatch(format);
    }
    // One made-up device for the whole run.
    expect(new Set(sent.map((q) => q.get('_sdevid'))).size).toBe(1);
    for (const name of Object.keys(formats))
      expect(stdout).toMatch(new RegExp(`^note: ${name} was not given: drift sent a generated one \\(`, 'm'));
  }, 30_000);

  it('prints no part of an identifier the service echoes inside a changing value (the table cuts cells)', async () => {
    const { stdout, stderr } = await drift(['--upstream', service.url, '--query-file', queryFile, session]);
    const printed = stdout + stderr;
    for (let at = 0; at + 12 <= DEVICE.length; at++) expect(printed).not.toContain(DEVICE.slice(at, at + 12));
    for (let at = 0; at + 12 <= TOKEN.length; at++) expect(printed).not.toContain(TOKEN.slice(at, at + 12));
  }, 30_000);

  it('takes the token from MOCKVIDEO_ST and the identifiers from MOCKVIDEO_QUERY', async () => {
    const identifiers = CLIENT_COMMON_QUERY.filter(([n]) => IDENTITY.includes(n))
      .map(([n, v]) => `${n}=${v}`)
      .join('&');
    const from = service.received.length;
    const { code } = await drift(['--upstream', service.url, session], {
      MOCKVIDEO_ST: TOKEN,
      MOCKVIDEO_QUERY: identifiers,
    });
    expect(code).toBe(0);
    expect(service.received.slice(from).every((t) => new URLSearchParams(t.split('?')[1]).get('_st') === TOKEN)).toBe(
      true,
    );
  }, 30_000);
});

describe('recording paths are exactly /api/g1/<operation> (drift sends the real token there)', () => {
  it.each([
    '/evil/endpoint?x=1&next=/api/g1/meta/cp',
    '//127.0.0.2:9/api/g1/meta/cp',
    '/prefix/api/g1/meta/cp',
    '/api/g1/../meta/cp',
  ])(
    'a recording whose path is %j is refused by validate, replay and drift, and nothing is sent',
    async (path) => {
      const dir = tempDir('mockvideo-path-');
      cpSync(session, dir, { recursive: true });
      const [file] = readdirSync(join(dir, 'meta-cp'));
      const recording = JSON.parse(readFileSync(join(dir, 'meta-cp', file!), 'utf8'));
      recording.request.path = path;
      writeFileSync(join(dir, 'meta-cp', file!), JSON.stringify(recording));
      const problem = new RegExp(
        `meta-cp/${file} at request\\.path: .*is not the path of operation meta/cp: expected exactly "/api/g1/meta/cp"`,
      );
      const validate = await runCli(['validate', dir]);
      expect(validate.code).toBe(1);
      expect(validate.stdout + validate.stderr).toMatch(problem);
      const replay = await runCli(['replay', dir, '--port', '0', '--no-watch']);
      expect(replay.code).not.toBe(0);
      expect(replay.stderr).toMatch(problem);
      const from = service.received.length;
      const live = await drift(['--upstream', service.url, '--query-file', queryFile, dir]);
      expect(live.code).not.toBe(0);
      expect(live.stderr).toMatch(problem);
      expect(service.received.length).toBe(from);
    },
    30_000,
  );
});

describe('drift --upstream: limits and failures', () => {
  it('keeps at most --concurrency requests in flight', async () => {
    Object.assign(service, { delayMs: 40, maxInFlight: 0 });
    try {
      const { code } = await drift([
        '--upstream',
        service.url,
        '--query-file',
        queryFile,
        '--concurrency',
        '1',
        '--rate',
        '100',
        session,
      ]);
      expect(code).toBe(0);
      expect(service.maxInFlight).toBe(1);
      service.maxInFlight = 0;
      expect(
        (
          await drift([
            '--upstream',
            service.url,
            '--query-file',
            queryFile,
            '--concurrency',
            '3',
            '--rate',
            '100',
            session,
          ])
        ).code,
      ).toBe(0);
      expect(service.maxInFlight).toBeGreaterThan(1);
      expect(service.maxInFlight).toBeLessThanOrEqual(3);
    } finally {
      service.delayMs = 0;
    }
  }, 30_000);

  it('exits 1 and says so when the live service gives no answer', async () => {
    const { code, stdout } = await drift([
      '--upstream',
      await deadUrl(),
      '--query-file',
      queryFile,
      '--rate',
      '100',
      session,
    ]);
    expect(code).toBe(1);
    expect(stdout).toMatch(/the live service gave no answer: ECONNREFUSED/);
    expect(stdout).toMatch(/7 unanswered/);
  }, 30_000);

  it('refuses a bad --concurrency and a --scenario without --upstream', async () => {
    expect((await drift(['--upstream', service.url, '--concurrency', '0', session])).stderr).toMatch(
      /--concurrency must be a positive integer, got "0"/,
    );
    const { code, stderr } = await drift(['--scenario', 'default']);
    expect(code).toBe(2);
    expect(stderr).toMatch(/--scenario needs --upstream/);
  });
});

describe('drift A B (offline)', () => {
  it('compares two recording folders: exit 0 for the same structure, 1 with the structural changes', async () => {
    const today = (await recordSession(service.url, SESSION)).dir;
    Object.assign(service.changes, { addField: true, numberType: true, itemShape: true });
    const changed = (await recordSession(service.url, SESSION)).dir;
    changesOff();
    const same = await drift(['--json', session, today]);
    expect(same.code).toBe(0);
    expect(structural(JSON.parse(same.stdout) as DriftReport)).toEqual([]);
    const moved = await drift(['--json', session, changed]);
    expect(moved.code).toBe(1);
    expect(
      structural(JSON.parse(moved.stdout) as DriftReport)
        .map((d) => `${d.operation} ${d.path} ${d.kind}`)
        .sort(),
    ).toEqual([
      'localplay/recomm data[].rank added',
      'meta/setting data.codec_level type',
      'meta/setting data.new_flag added',
    ]);
  }, 30_000);
});

describe('drift --upstream URL --scenario NAME', () => {
  it("asks the live service with the client's query for each stub of a scenario (here one made from the session) and compares", async () => {
    const scenarios = tempDir('mockvideo-drift-scenarios-');
    const made = await runCli([
      'scenario',
      'from-recordings',
      session,
      '--name',
      'live-session',
      '--scenarios-dir',
      scenarios,
    ]);
    expect(made.code).toBe(0);
    const from = service.received.length;
    const calm = await drift([
      '--upstream',
      service.url,
      '--scenario',
      'live-session',
      '--scenarios-dir',
      scenarios,
      '--query-file',
      queryFile,
      '--json',
    ]);
    expect(structural(JSON.parse(calm.stdout) as DriftReport)).toEqual([]);
    expect(calm.code).toBe(0);
    const sent = service.received.slice(from);
    // The diversion's two `when` stubs are asked with is_from_gallery=false and =true.
    expect(
      sent
        .filter((t) => t.startsWith('/api/g1/localplay/diversion?ref=&is_from_gallery='))
        .map((t) => /is_from_gallery=(\w+)/.exec(t)![1])
        .sort(),
    ).toEqual(['false', 'false', 'true', 'true']);
    expect(sent.every((t) => new URLSearchParams(t.split('?')[1]).get('_st') === TOKEN)).toBe(true);
    service.changes.itemShape = true;
    try {
      const moved = await drift([
        '--upstream',
        service.url,
        '--scenario',
        'live-session',
        '--scenarios-dir',
        scenarios,
        '--query-file',
        queryFile,
        '--json',
      ]);
      expect(moved.code).toBe(1);
      expect(
        structural(JSON.parse(moved.stdout) as DriftReport).map((d) => `${d.operation} ${d.path} ${d.kind}`),
      ).toEqual(['localplay/recomm data[].rank added']);
    } finally {
      changesOff();
    }
    expect(readFileSync(join(scenarios, 'live-session.json'), 'utf8')).not.toContain(TOKEN);
  }, 30_000);
});

import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startCli } from '../support/cli.js';
import { clientPath } from '../support/client.js';
import { eventually, getBytes, recordSession, recordingFiles, removeTempDirs, tempDir } from '../support/recordings.js';
import { OTHER_SESSION, clientPathWith } from '../support/sessions.js';
import { startUpstream, type Upstream } from '../support/upstream.js';

let upstream: Upstream;
let dir: string;
let bodies: Buffer[];

beforeAll(async () => {
  upstream = await startUpstream();
  ({ dir, bodies } = await recordSession(upstream.url, [
    clientPath('localplay/diversion', { is_from_gallery: 'true' }),
    clientPath('meta/cp'),
    clientPath('meta/setting'),
  ]));
});

afterAll(async () => {
  removeTempDirs();
  await upstream.close();
});

/** The gallery diversion as another emulator model sends it. */
const otherModel = (extra: Record<string, string> = {}) =>
  clientPathWith(
    'localplay/diversion',
    { ...OTHER_SESSION, _model: 'Pixel%207', ...extra },
    { is_from_gallery: 'false' },
  );

describe('--match strict', () => {
  it('answers a miss with a 404 near-miss report: the closest recording and each differing parameter', async () => {
    const replay = await startCli(['replay', dir, '--match', 'strict', '--port', '0']);
    try {
      const { status, body } = await getBytes(`${replay.url}${otherModel()}`);
      expect(status).toBe(404);
      const report = JSON.parse(body.toString());
      expect(report.error).toMatch(/No recording matches GET localplay\/diversion/);
      expect(report.matchKey).toContain('"operation":"localplay/diversion"');
      expect(report.nearMisses).toHaveLength(1);
      expect(report.nearMisses[0].recording).toMatch(/^localplay-diversion\/[0-9a-f]{12}-000\.json$/);
      expect(report.nearMisses[0].differences).toEqual([
        { parameter: '_model', recorded: 'Redmi Note 12 Pro+', requested: 'Pixel 7' },
        { parameter: 'is_from_gallery', recorded: 'true', requested: 'false' },
      ]);
      expect(report.ignored).toEqual(
        expect.arrayContaining([
          { parameter: '_nonce', reason: 'volatile' },
          { parameter: '_st', reason: 'secret' },
          { parameter: '_sdevid', reason: 'identity' },
        ]),
      );

      const text = await (await fetch(`${replay.url}${otherModel()}`, { headers: { accept: 'text/plain' } })).text();
      expect(text).toMatch(/Request was not matched: GET localplay\/diversion/);
      expect(text).toMatch(/is_from_gallery +\| "true" +\| "false"/);
      expect(text).toMatch(/_nonce +\| \(ignored: volatile\)/);
      expect(await eventually(replay.stdout, /Closest recording/)).toMatch(/Closest recording: localplay-diversion\//);
    } finally {
      await replay.stop('SIGINT');
    }
  });

  it('redacts the token in the report, the 404 body and the log, also where it is the value of another parameter (issue 39 L6)', async () => {
    const token = 'made-up/live+tok=en&x 42';
    const once = encodeURIComponent(token);
    const forms = [
      token,
      once,
      once.replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase()),
      JSON.stringify(token).slice(1, -1),
    ];
    const path = otherModel({ _st: once, _model: once, _locale: encodeURIComponent(`a ${token}`) });
    const replay = await startCli(['replay', dir, '--match', 'strict', '--port', '0']);
    try {
      const { status, body } = await getBytes(`${replay.url}${path}`);
      expect(status).toBe(404);
      const report = JSON.parse(body.toString());
      expect(report.nearMisses[0].differences).toEqual(
        expect.arrayContaining([
          { parameter: '_model', recorded: 'Redmi Note 12 Pro+', requested: '<SERVICE_TOKEN>' },
          { parameter: '_locale', recorded: 'en_IN', requested: 'a <SERVICE_TOKEN>' },
        ]),
      );
      const text = await (await fetch(`${replay.url}${path}`, { headers: { accept: 'text/plain' } })).text();
      expect(text).toMatch(/_model +\| "Redmi Note 12 Pro\+" +\| "<SERVICE_TOKEN>"/);
      await eventually(replay.stdout, /Closest recording/);
      const journal = await (await fetch(`${replay.url}/__mockvideo/requests.har`)).text();
      for (const [where, written] of Object.entries({
        body: body.toString(),
        text,
        journal,
        log: replay.stdout() + replay.stderr(),
      }))
        for (const form of forms) expect(written, `${where} holds ${form}`).not.toContain(form);
    } finally {
      await replay.stop('SIGINT');
    }
  });

  it('answers a method other than GET/HEAD with 405', async () => {
    const replay = await startCli(['replay', dir, '--port', '0']);
    try {
      const response = await fetch(`${replay.url}${clientPath('meta/cp')}`, { method: 'POST', body: '{}' });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('GET, HEAD');
    } finally {
      await replay.stop('SIGINT');
    }
  });

  it('prints the recordings never used when it stops', async () => {
    const replay = await startCli(['replay', dir, '--match', 'strict', '--port', '0']);
    await getBytes(`${replay.url}${clientPathWith('meta/cp', OTHER_SESSION)}`);
    expect(await replay.stop('SIGINT')).toBe(0);
    const out = replay.stdout();
    expect(out).toMatch(
      /Unused recordings \(2 of 3\):\n {2}meta-setting\/[0-9a-f]{12}-000\.json\n {2}localplay-diversion\/|Unused recordings \(2 of 3\):\n {2}localplay-diversion\/[0-9a-f]{12}-000\.json\n {2}meta-setting\//,
    );
    expect(out).not.toMatch(/^ {2}meta-cp\//m);
  });
});

describe('--match nearest (the default)', () => {
  it('serves the closest recording of the same operation to another model, and says so', async () => {
    const replay = await startCli(['replay', dir, '--port', '0']);
    try {
      const { status, headers, body } = await getBytes(`${replay.url}${otherModel()}`);
      expect(status).toBe(200);
      expect(headers.get('x-mockvideo-match')).toBe('nearest');
      expect(headers.get('x-mockvideo-differences')).toBe('_model, is_from_gallery');
      expect(body.equals(bodies[0]!)).toBe(true);
      expect(await eventually(replay.stdout, /match=nearest/)).toMatch(
        /GET localplay\/diversion .*200 {2}match=nearest/,
      );
    } finally {
      await replay.stop('SIGINT');
    }
  });

  it('never serves a recording of another operation', async () => {
    const only = tempDir();
    cpSync(join(dir, 'meta-cp'), join(only, 'meta-cp'), { recursive: true });
    const replay = await startCli(['replay', only, '--port', '0']);
    try {
      const { status, body } = await getBytes(`${replay.url}${clientPath('meta/setting')}`);
      expect(status).toBe(404);
      expect(JSON.parse(body.toString())).toMatchObject({ operation: 'meta/setting', nearMisses: [] });
    } finally {
      await replay.stop('SIGINT');
    }
  });
});

describe('misses answered another way', () => {
  it('--fallback-scenario answers misses from a scenario, marked fallback', async () => {
    const replay = await startCli([
      'replay',
      dir,
      '--match',
      'strict',
      '--fallback-scenario',
      'default',
      '--port',
      '0',
    ]);
    try {
      const exact = await getBytes(`${replay.url}${clientPathWith('meta/cp', OTHER_SESSION)}`);
      expect(exact.headers.get('x-mockvideo-match')).toBe('exact');
      const missed = await getBytes(`${replay.url}${clientPath('meta/plugin')}`);
      expect(missed.status).toBe(200);
      expect(missed.headers.get('x-mockvideo-match')).toBe('fallback');
      expect(missed.headers.get('x-mockvideo-scenario')).toBe('default');
      expect(JSON.parse(missed.body.toString())).toMatchObject({ msg: 'OK', result: 1 });
    } finally {
      await replay.stop('SIGINT');
    }
  });

  // Issue 20, item 9: with the default --match nearest, a request without an exact recording got the
  // nearest recording, and the scenario answered only operations without any recording.
  it('--fallback-scenario answers every request without an exact recording, also where a nearest one exists', async () => {
    const replay = await startCli(['replay', dir, '--fallback-scenario', 'default', '--port', '0', '--no-watch']);
    try {
      const other = await getBytes(`${replay.url}${clientPath('meta/cp').replace('_region=IN', '_region=US')}`);
      expect(other.status).toBe(200);
      expect(other.headers.get('x-mockvideo-match')).toBe('fallback');
      expect(other.headers.get('x-mockvideo-scenario')).toBe('default');
      expect(
        (await getBytes(`${replay.url}${clientPathWith('meta/cp', OTHER_SESSION)}`)).headers.get('x-mockvideo-match'),
      ).toBe('exact');
    } finally {
      await replay.stop('SIGINT');
    }
  });

  it.each(['routes', 'msw'])(
    '--record-missing fetches, records and then replays what was missing (--engine %s)',
    async (engine) => {
      const copy = tempDir();
      cpSync(dir, copy, { recursive: true });
      const before = upstream.received.length;
      const replay = await startCli([
        'replay',
        copy,
        '--record-missing',
        '--upstream',
        upstream.url,
        '--port',
        '0',
        '--engine',
        engine,
      ]);
      try {
        const first = await getBytes(`${replay.url}${clientPath('ad_config')}`);
        expect(first.headers.get('x-mockvideo-match')).toBe('recorded');
        const again = await getBytes(`${replay.url}${clientPathWith('ad_config', OTHER_SESSION)}`);
        expect(again.headers.get('x-mockvideo-match')).toBe('exact');
        expect(again.body.equals(first.body)).toBe(true);
        expect(upstream.received.length - before).toBe(1);
      } finally {
        await replay.stop('SIGINT');
      }
    },
  );

  it('--record-missing labels an upstream failure it passes on without recording "passthrough", not "recorded"', async () => {
    const copy = tempDir();
    cpSync(dir, copy, { recursive: true });
    const files = recordingFiles(copy).length;
    const replay = await startCli(['replay', copy, '--record-missing', '--upstream', upstream.url, '--port', '0']);
    upstream.switches.fail = true;
    try {
      const failed = await getBytes(`${replay.url}${clientPath('meta/plugin')}`);
      expect(failed.status).toBe(503);
      expect(failed.headers.get('x-mockvideo-match')).toBe('passthrough');
      expect(recordingFiles(copy)).toHaveLength(files);
      const { requests } = await (await fetch(`${replay.url}/__mockvideo/requests?operation=meta/plugin`)).json();
      expect(requests.at(-1)).toMatchObject({ status: 503, match: 'passthrough' });
    } finally {
      upstream.switches.fail = false;
      await replay.stop('SIGINT');
    }
    expect(replay.stdout()).toMatch(/GET meta\/plugin .*503 .*not recorded: upstream failure/);
  });

  it('--record-missing --record-failures records an upstream failure too, as the docs say (issue 34)', async () => {
    const copy = tempDir();
    cpSync(dir, copy, { recursive: true });
    const files = recordingFiles(copy).length;
    const replay = await startCli([
      'replay',
      copy,
      '--record-missing',
      '--record-failures',
      '--upstream',
      upstream.url,
      '--port',
      '0',
    ]);
    upstream.switches.fail = true;
    try {
      const failed = await getBytes(`${replay.url}${clientPath('meta/plugin')}`);
      expect(failed.status).toBe(503);
      expect(failed.headers.get('x-mockvideo-match')).toBe('recorded');
      expect(recordingFiles(copy)).toHaveLength(files + 1);
    } finally {
      upstream.switches.fail = false;
      await replay.stop('SIGINT');
    }
  });

  it('--record-failures without --record-missing is a usage error naming both flags', async () => {
    const result = await runCli(['replay', dir, '--record-failures', '--port', '0']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--record-failures .*--record-missing/);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });
});

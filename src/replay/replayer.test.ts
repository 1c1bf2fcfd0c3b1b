import { getResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { DEFAULT_POLICY, buildRecording, splitQuery, type NamedRecording } from '../normalise/index.js';
import { ClientStates } from '../state/client-state.js';
import { createReplayHandlers } from '../msw/replay-handlers.js';
import { formatNearMissReport } from './near-miss.js';
import { RecordingIndex, type IndexedRecording } from './recording-index.js';
import {
  RecordingUnavailableError,
  responseOf,
  type RecordedResponse,
  type RecordingSource,
} from './recording-source.js';
import { Replayer } from './replayer.js';

const COMMON = '_region=IN&_model=Redmi%20Note&_nonce=1&_ts=2&_st=SECRET-PLACEHOLDER&_sdevid=abc123abc123';

function named(name: string, path: string, search: string, body: string): NamedRecording {
  const { recording } = buildRecording(
    {
      method: 'GET',
      path,
      query: splitQuery(search),
      requestHeaders: {},
      status: 200,
      responseHeaders: { 'content-type': 'application/json' },
      body: new TextEncoder().encode(body),
      recordedAt: '2026-01-01T00:00:00.000Z',
    },
    DEFAULT_POLICY,
  );
  return { name, recording };
}

const recordings = [
  named(
    'localplay-diversion/a-000.json',
    '/api/g1/localplay/diversion',
    `ref=&is_from_gallery=true&${COMMON}&ref=app`,
    'gallery',
  ),
  named(
    'localplay-diversion/b-000.json',
    '/api/g1/localplay/diversion',
    `ref=&is_from_gallery=false&${COMMON}&ref=app`,
    'other',
  ),
  named('meta-setting/c-000.json', '/api/g1/meta/setting', COMMON, 'first'),
  named('meta-setting/c-001.json', '/api/g1/meta/setting', COMMON, 'second'),
  named('meta-cp/d-000.json', '/api/g1/meta/cp', COMMON, 'cp'),
];

const bodyOf = (outcome: ReturnType<Replayer['find']>) =>
  'entry' in outcome ? outcome.entry.recording!.response.body : outcome.kind;

describe('Replayer', () => {
  it('finds the exact key whatever the volatile, secret and identity values', () => {
    const replayer = new Replayer(recordings, { match: 'strict' });
    const outcome = replayer.find(
      'GET',
      '/api/g1/localplay/diversion',
      `?ref=&is_from_gallery=false&_region=IN&_model=Redmi+Note&_nonce=99&_ts=100&_st=OTHER&_sdevid=zzz&ref=app`,
    );
    expect(outcome.kind).toBe('exact');
    expect(bodyOf(outcome)).toBe('other');
  });

  it('answers HEAD like GET', () => {
    expect(new Replayer(recordings, { match: 'strict' }).find('HEAD', '/api/g1/meta/cp', COMMON).kind).toBe('exact');
  });

  it('serves a sequence in recorded order, then repeats the last', () => {
    const replayer = new Replayer(recordings);
    expect([1, 2, 3].map(() => bodyOf(replayer.find('GET', '/api/g1/meta/setting', COMMON)))).toEqual([
      'first',
      'second',
      'second',
    ]);
  });

  it('nearest: serves the closest recording of the same operation, never another operation', () => {
    const replayer = new Replayer(recordings, { match: 'nearest' });
    const outcome = replayer.find(
      'GET',
      '/api/g1/localplay/diversion',
      `ref=&is_from_gallery=false&_region=DE&ref=app`,
    );
    expect(outcome.kind).toBe('nearest');
    expect(bodyOf(outcome)).toBe('other');
    expect(new Replayer(recordings.slice(0, 2)).find('GET', '/api/g1/meta/cp', COMMON).kind).toBe('miss');
  });

  it('strict: a miss reports the closest recordings and what differs, closest first', () => {
    const replayer = new Replayer(recordings, { match: 'strict' });
    const outcome = replayer.find(
      'GET',
      '/api/g1/localplay/diversion',
      `ref=&is_from_gallery=true&_region=DE&_model=Redmi%20Note&ref=app&_nonce=5`,
    );
    expect(outcome.kind).toBe('miss');
    if (outcome.kind !== 'miss') return;
    expect(outcome.report.nearMisses).toEqual([
      {
        recording: 'localplay-diversion/a-000.json',
        differences: [{ parameter: '_region', recorded: 'IN', requested: 'DE' }],
      },
      {
        recording: 'localplay-diversion/b-000.json',
        differences: [
          { parameter: '_region', recorded: 'IN', requested: 'DE' },
          { parameter: 'is_from_gallery', recorded: 'false', requested: 'true' },
        ],
      },
    ]);
    expect(outcome.report.ignored).toEqual([{ parameter: '_nonce', reason: 'volatile' }]);
    const text = formatNearMissReport(outcome.report);
    expect(text).toMatch(/^Request was not matched: GET localplay\/diversion/);
    expect(text).toMatch(
      /parameter +\| recorded +\| requested\n +_region +\| "IN" +\| "DE"\n +_nonce +\| \(ignored: volatile\)/,
    );
  });

  it('shows a repeated parameter whose order changed, and an absent one', () => {
    const replayer = new Replayer(recordings, { match: 'strict' });
    const outcome = replayer.find(
      'GET',
      '/api/g1/localplay/diversion',
      `ref=app&is_from_gallery=true&_region=IN&_model=Redmi%20Note&ref=`,
    );
    if (outcome.kind !== 'miss') throw new Error('expected a miss');
    expect(outcome.report.nearMisses[0]!.differences).toEqual([
      { parameter: 'ref', recorded: ['', 'app'], requested: ['app', ''] },
    ]);
    const absent = replayer.find('GET', '/api/g1/meta/cp', '_region=IN');
    if (absent.kind !== 'miss') throw new Error('expected a miss');
    expect(absent.report.nearMisses[0]!.differences).toEqual([
      { parameter: '_model', recorded: 'Redmi Note', requested: null },
    ]);
  });

  it('lists the recordings never used', () => {
    const replayer = new Replayer(recordings);
    replayer.find('GET', '/api/g1/meta/cp', COMMON);
    replayer.find('GET', '/api/g1/meta/setting', COMMON);
    expect(replayer.unused()).toEqual([
      'localplay-diversion/a-000.json',
      'localplay-diversion/b-000.json',
      'meta-setting/c-001.json',
    ]);
  });

  it('looks up the exact key of each of 20,000 recordings of one operation, and serves the nearest to an unknown one', () => {
    const template = named('meta-cp/t-000.json', '/api/g1/meta/cp', COMMON, '').recording;
    const many = Array.from({ length: 20_000 }, (_, i) => ({
      name: `meta-cp/${i}-000.json`,
      recording: {
        ...template,
        request: { ...template.request, query: [...template.request.query, ['_appver', String(i)] as const] },
        response: { ...template.response, body: String(i) },
      },
    }));
    const replayer = new Replayer(many, { match: 'strict' });
    for (let i = 0; i < 20_000; i++)
      if (
        bodyOf(replayer.find('GET', '/api/g1/meta/cp', `${COMMON}&_appver=${(i * 7919) % 20_000}`)) !==
        String((i * 7919) % 20_000)
      )
        throw new Error('wrong recording');
    const nearest = replayer.find('GET', '/api/g1/meta/cp', `${COMMON}&_appver=x`, 'nearest');
    expect(nearest.kind === 'nearest' && [nearest.entry.name, nearest.differences]).toEqual([
      'meta-cp/0-000.json',
      [{ parameter: '_appver', recorded: '0', requested: 'x' }],
    ]);
  });
});

/** A source of responses kept in a map, as a browser or a test would give; counts its reads. */
function memorySource(
  recordings: readonly NamedRecording[],
): RecordingSource & { reads: string[]; remove(name: string): void } {
  const responses = new Map(recordings.map(({ name, recording }) => [name, responseOf(recording.response)]));
  const reads: string[] = [];
  return {
    reads,
    remove: (name) => responses.delete(name),
    response: async (name) => {
      reads.push(name);
      const response = responses.get(name);
      if (!response) throw new RecordingUnavailableError(name, 'its file is gone (ENOENT)');
      return response;
    },
  };
}

const refOf = ({ name, recording }: NamedRecording) => ({
  name,
  operation: recording.operation,
  method: recording.request.method,
  query: recording.request.query,
});

describe('Replayer over recordings indexed by reference', () => {
  it('reads the response from the source when served: the same bytes as the recording in memory', async () => {
    const source = memorySource(recordings);
    const replayer = new Replayer(new RecordingIndex(recordings.map(refOf), DEFAULT_POLICY, source), {
      match: 'strict',
    });
    const outcome = replayer.find('GET', '/api/g1/meta/setting', COMMON);
    if (outcome.kind !== 'exact') throw new Error('expected an exact match');
    expect(outcome.entry.recording).toBeUndefined();
    const response: RecordedResponse = await replayer.response(outcome.entry);
    expect(new TextDecoder().decode(response.body)).toBe('first');
    expect(response.headers).toEqual({ 'content-type': 'application/json' });
    expect(source.reads).toEqual(['meta-setting/c-000.json']);
  });

  it('answers 500 naming the recording when its source cannot give it any more, and keeps answering the others', async () => {
    const source = memorySource(recordings);
    const replayer = new Replayer(new RecordingIndex(recordings.map(refOf), DEFAULT_POLICY, source), {
      match: 'strict',
    });
    const handlers = createReplayHandlers([], { replayer });
    source.remove('meta-cp/d-000.json');
    const gone = await getResponse(handlers, new Request(`http://localhost/api/g1/meta/cp?${COMMON}`));
    expect(gone?.status).toBe(500);
    expect(gone?.headers.get('x-mockvideo-recording')).toBe('meta-cp/d-000.json');
    const body = (await gone?.json()) as { error: string; code: string; recording: string };
    expect([body.code, body.recording]).toEqual(['MV_RECORDING_UNAVAILABLE', 'meta-cp/d-000.json']);
    expect(body.error).toMatch(
      /^Cannot serve recording meta-cp\/d-000\.json: its file is gone \(ENOENT\)\..*restore the file/,
    );
    const other = await getResponse(handlers, new Request(`http://localhost/api/g1/meta/setting?${COMMON}`));
    expect([other?.status, await other?.text()]).toEqual([200, 'first']);
  });

  it('requests for one recording while it is read share the read (and its failure); later ones read again', async () => {
    const source = memorySource(recordings);
    const replayer = new Replayer(new RecordingIndex(recordings.map(refOf), DEFAULT_POLICY, source), {
      match: 'strict',
    });
    const served = () => (replayer.find('GET', '/api/g1/meta/cp', COMMON) as { entry: IndexedRecording }).entry;
    const first = await Promise.all(Array.from({ length: 5 }, () => replayer.response(served())));
    expect(source.reads).toEqual(['meta-cp/d-000.json']);
    expect(new Set(first).size).toBe(1);
    await replayer.response(served());
    expect(source.reads).toHaveLength(2);
    source.remove('meta-cp/d-000.json');
    const failed = await Promise.allSettled([replayer.response(served()), replayer.response(served())]);
    expect(failed.map((f) => f.status)).toEqual(['rejected', 'rejected']);
    expect(source.reads).toHaveLength(3);
  });

  it('find() counts exact and nearest outcomes, and a miss not at all', () => {
    const replayer = new Replayer(recordings, { match: 'nearest' });
    const name = (outcome: ReturnType<Replayer['find']>) => ('entry' in outcome ? outcome.entry.name : outcome.kind);
    expect(name(replayer.find('GET', '/api/g1/meta/setting', COMMON))).toBe('meta-setting/c-000.json');
    expect(name(replayer.find('GET', '/api/g1/meta/setting', COMMON, 'strict'))).toBe('meta-setting/c-001.json');
    expect(replayer.find('GET', '/api/g1/meta/cp', 'other=1').kind).toBe('nearest');
    expect(replayer.find('GET', '/api/g1/meta/cp', 'other=1', 'strict').kind).toBe('miss');
    expect(replayer.find('GET', '/api/g1/nothing', COMMON).kind).toBe('not-operation');
    expect(replayer.unused()).toEqual(['localplay-diversion/a-000.json', 'localplay-diversion/b-000.json']);
  });

  const exactOf = (outcome: ReturnType<Replayer['find']>) => (outcome.kind === 'exact' ? outcome : undefined);

  // Sequences for the whole server: each request comes from another device.
  it('find() remembers exact matches by the query without its volatile, secret and identity values, and forgets them when the recordings change', () => {
    const replayer = new Replayer(recordings.slice(0, 2), {
      match: 'strict',
      state: new ClientStates({ scope: 'global' }),
    });
    const ask = (nonce: number) =>
      exactOf(
        replayer.find(
          'GET',
          '/api/g1/localplay/diversion',
          `ref=&is_from_gallery=false&_region=IN&_model=Redmi%20Note&_nonce=${nonce}&_ts=${nonce}&_st=S${nonce}&_sdevid=d${nonce}&ref=app`,
        ),
      );
    expect(ask(1)?.entry.name).toBe('localplay-diversion/b-000.json');
    expect(ask(2)?.entry.name).toBe('localplay-diversion/b-000.json');
    // Another value of a parameter that matches is another query.
    expect(
      exactOf(
        replayer.find(
          'GET',
          '/api/g1/localplay/diversion',
          'ref=&is_from_gallery=maybe&_region=IN&_model=Redmi%20Note&ref=app',
        ),
      ),
    ).toBeUndefined();
    // A recording added under the same key (--record-missing) makes it a sequence at once, served
    // from its first step: an index without sequences counted nothing before (as a scenario without them).
    replayer.add(
      named(
        'localplay-diversion/b-001.json',
        '/api/g1/localplay/diversion',
        `ref=&is_from_gallery=false&${COMMON}&ref=app`,
        'other again',
      ),
    );
    expect([ask(3), ask(3)].map((found) => found?.entry.name)).toEqual([
      'localplay-diversion/b-000.json',
      'localplay-diversion/b-001.json',
    ]);
    // A reloaded folder is asked afresh.
    replayer.replaceRecordings(recordings.slice(0, 1));
    expect(ask(4)).toBeUndefined();
    // An encoded parameter name is decoded, never remembered raw.
    replayer.replaceRecordings(recordings);
    expect(exactOf(replayer.find('GET', '/api/g1/meta/cp', COMMON.replace('_region', '%5Fregion')))?.entry.name).toBe(
      'meta-cp/d-000.json',
    );
    expect(exactOf(replayer.find('GET', '/api/g1/meta/cp', COMMON.replace('_region', '%5Fregion')))?.entry.name).toBe(
      'meta-cp/d-000.json',
    );
  });

  it('a folder reloaded with replaceRecordings answers from the new index and starts sequences again', async () => {
    const replayer = new Replayer(recordings);
    expect(bodyOf(replayer.find('GET', '/api/g1/meta/setting', COMMON))).toBe('first');
    const edited = recordings.map((r) =>
      r.name === 'meta-setting/c-000.json'
        ? { ...r, recording: { ...r.recording, response: { ...r.recording.response, body: 'edited' } } }
        : r,
    );
    replayer.replaceRecordings(new RecordingIndex(edited.map(refOf), DEFAULT_POLICY, memorySource(edited)));
    const outcome = replayer.find('GET', '/api/g1/meta/setting', COMMON);
    if (outcome.kind !== 'exact') throw new Error('expected an exact match');
    expect(new TextDecoder().decode((await replayer.response(outcome.entry)).body)).toBe('edited');
    expect(replayer.unused()).toContain('meta-cp/d-000.json');
  });
});

describe('Replayer.find routes paths as the server does (issue 40, item 5)', () => {
  it('finds a recording for every spelling routeOf takes, and none for a path that is no operation', () => {
    const replayer = new Replayer(recordings, { match: 'strict' });
    for (const path of [
      '/api/g1/./meta/cp',
      '/api/g1//meta/cp/',
      '/scenarios/gallery/api/g1/meta/cp',
      '/api/g1/%6Deta/cp',
    ])
      expect(replayer.find('GET', path, COMMON).kind, path).toBe('exact');
    expect(replayer.find('GET', '/elsewhere/api/g1/meta/cp', COMMON).kind).toBe('not-operation');
  });
});

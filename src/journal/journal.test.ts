import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { harProblems } from '../../test/support/har-validator.js';
import { prefixed } from '../errors.js';
import { journalHarText } from './har.js';
import { DEFAULT_POLICY, type Recording } from '../normalise/index.js';
import { answerBytes, answerSize, journalView } from './journal-view.js';

/** The most body characters the journal shows (docs/admin-api.md: its first 64 KiB). */
const LIMIT = 65_536;
import { Journal, type NewExchange } from './journal.js';

function exchange(body: string): NewExchange {
  return {
    entry: {
      time: '',
      operation: 'meta/cp',
      query: {},
      scenario: null,
      status: 200,
      durationMs: 0,
      findings: [],
      match: null,
      fault: null,
    },
    method: 'GET',
    path: '/api/g1/meta/cp',
    rawQuery: [],
    requestHeaders: {},
    responseHeaders: {},
    responseBody: body,
    answerBody: { body },
  };
}

describe('Journal byte budget (issue 21.5)', () => {
  it('forgets the oldest exchanges once their bodies pass maxBytes, keeping ids in order', () => {
    const journal = new Journal(1000, 250);
    for (let i = 0; i < 10; i++) journal.add(exchange('x'.repeat(100)));
    expect(journal.exchanges().map((x) => x.entry.id)).toEqual([9, 10]);
    expect(journal.get(9)?.entry.id).toBe(9);
    expect(journal.get(8)).toBeUndefined();
  });

  it('still keeps at most `limit` exchanges', () => {
    const journal = new Journal(3);
    for (let i = 0; i < 5; i++) journal.add(exchange(''));
    expect(journal.exchanges().map((x) => x.entry.id)).toEqual([3, 4, 5]);
  });
});

describe('journal view (issue 21.2, 21.5)', () => {
  it('cuts a body at 64 KiB (the documented 65,536 characters), naming the recording that holds it all', () => {
    const body = 'y'.repeat(200_000);
    const facts = {
      method: 'GET',
      path: '/api/g1/meta/cp',
      search: '',
      requestHeaders: {},
      status: 200,
      responseHeaders: {},
    };
    const recording = { response: { headers: {}, body } } as unknown as Recording;
    const file = 'meta-cp/0a1b2c3d4e5f-000.json';
    expect(journalView({ ...facts, body: '' }, DEFAULT_POLICY, { recording, file }).responseBody).toBe(
      `${'y'.repeat(LIMIT)}\n${prefixed(`body cut at ${LIMIT} of 200000 characters: the whole body is in the recording ${file}.`)}`,
    );
    expect(journalView({ ...facts, body }, DEFAULT_POLICY).responseBody).toMatch(
      /body cut at 65536 of 200000 characters: the whole body is in the start-up's bundle \(GET \/__mockvideo\/start-ups\/ID\/bundle\)\.$/,
    );
  });

  it('keeps the whole body, redacted, for bundles: the same string as the one shown when it is not cut, base64 when not UTF-8, bytes when longer', () => {
    const facts = {
      method: 'GET',
      path: '/api/g1/meta/cp',
      search: '_st=made-up-journal-token-2',
      requestHeaders: {},
      status: 200,
      responseHeaders: {},
    };
    const long = journalView({ ...facts, body: `${'z'.repeat(100_000)}made-up-journal-token-2` }, DEFAULT_POLICY);
    expect(new TextDecoder().decode(answerBytes(long.answerBody))).toBe(`${'z'.repeat(100_000)}<SERVICE_TOKEN>`);
    expect(answerSize(long.answerBody)).toBe(100_015);
    expect(long.responseBody.length).toBeLessThan(LIMIT + 200);
    // A long answer with nothing redacted in it is kept as its own buffer (shared, never copied).
    const answer = new TextEncoder().encode('y'.repeat(100_000));
    expect(journalView({ ...facts, body: answer }, DEFAULT_POLICY).answerBody).toBe(answer);
    const short = journalView({ ...facts, body: '{"a":1}' }, DEFAULT_POLICY);
    expect(short.answerBody).toEqual({ body: short.responseBody });
    expect(answerSize(short.answerBody)).toBe(7);
    const bytes = journalView({ ...facts, body: new Uint8Array([0xff, 0x00, 0x41]) }, DEFAULT_POLICY);
    expect(bytes.answerBody).toEqual({ bodyBase64: '/wBB' });
  });

  it("redacts with the recordings' function: the token and its echoes, secret cookies; identifiers stay for filtering", () => {
    const token = 'made-up-journal-token-1';
    const view = journalView(
      {
        method: 'GET',
        path: '/api/g1/meta/cp',
        search: `_st=${token}&_sdevid=${'a'.repeat(64)}`,
        requestHeaders: { cookie: 'ab=true; sid=made-up-sid-value' },
        status: 200,
        responseHeaders: { 'x-echo': Buffer.from(token).toString('base64') },
        body: `{"echo":"${token.replace(/-/g, '\\u002d')}"}`,
      },
      DEFAULT_POLICY,
    );
    expect(view).toEqual({
      rawQuery: [
        ['_st', '<SERVICE_TOKEN>'],
        ['_sdevid', 'a'.repeat(64)],
      ],
      requestHeaders: { cookie: 'ab=true; sid=<REDACTED>' },
      responseHeaders: { 'x-echo': '<SERVICE_TOKEN>' },
      responseBody: '{"echo":"<SERVICE_TOKEN>"}',
      answerBody: { body: '{"echo":"<SERVICE_TOKEN>"}' },
    });
  });
});

describe('journal and HAR redaction property (issue 21.3)', () => {
  const token = fc
    .array(fc.constantFrom('/', '+', '=', '&', '%', ' ', 'a', 'Z', '0', '9', '-', '_', 'é'), {
      minLength: 8,
      maxLength: 32,
    })
    .map((chars) => chars.join(''))
    .filter((t) => t.trim().length >= 8);
  const b64 = (t: string) => Buffer.from(t).toString('base64');
  const echoes: Array<(t: string) => string> = [
    (t) => t,
    (t) => encodeURIComponent(t),
    (t) =>
      encodeURIComponent(t)
        .replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase())
        .replace(/%20/g, '+'),
    (t) => JSON.stringify(t).slice(1, -1).replace(/\//g, '\\/').replace(/=/g, '\\u003d'),
    b64,
    (t) => b64(t).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, ''),
    (t) => Buffer.from(t).toString('hex'),
  ];

  it('leaves 0 hits of a random token echoed in random encodings in the journal view and its HAR', async () => {
    await fc.assert(
      fc.asyncProperty(
        token,
        fc.array(fc.nat(echoes.length - 1), { minLength: 1, maxLength: 5 }),
        async (secret, picks) => {
          const body = `{"data":{${picks.map((p, i) => `"e${i}":"${echoes[p]!(secret)}"`).join(',')}}}`;
          const view = journalView(
            {
              method: 'GET',
              path: '/api/g1/meta/cp',
              search: `_st=${encodeURIComponent(secret)}`,
              requestHeaders: {},
              status: 200,
              responseHeaders: { 'x-echo': echoes[picks[0]!]!(secret) },
              body,
            },
            DEFAULT_POLICY,
          );
          const journal = new Journal();
          journal.add({ ...exchange(view.responseBody), ...view });
          const har = [...journalHarText(journal.exchanges(), 'http://127.0.0.1:1')].join('');
          expect(JSON.parse(har).log.entries).toHaveLength(1);
          for (const encode of echoes) expect(har).not.toContain(encode(secret));
        },
      ),
    );
  });
});

describe('journalHarText (issue 21.5)', () => {
  it('streams a HAR 1.2 log in pieces: its head, one piece per entry, its end', async () => {
    const journal = new Journal();
    for (let i = 0; i < 3; i++) {
      const made = exchange(`{"n":${i}}`);
      journal.add({ ...made, entry: { ...made.entry, time: `2026-01-01T00:00:0${i}.000Z`, durationMs: 10 + i } });
    }
    const chunks = [...journalHarText(journal.exchanges(), 'http://127.0.0.1:1', '1.0.0')];
    expect(chunks.length).toBe(5);
    const { log } = JSON.parse(chunks.join(''));
    expect(await harProblems({ log })).toEqual([]);
    expect([log.creator.version, log.pages.map((page: { title: string }) => page.title)]).toEqual([
      '1.0.0',
      ['mockvideo journal'],
    ]);
    // Each entry: its real start and duration (milliseconds), the request as sent, the body as sent.
    expect(
      log.entries.map((e: any) => [e.startedDateTime, e.time, e.timings, e.request.url, e.response.content.text]),
    ).toEqual(
      [0, 1, 2].map((i) => [
        `2026-01-01T00:00:0${i}.000Z`,
        10 + i,
        { send: 0, wait: 10 + i, receive: 0 },
        'http://127.0.0.1:1/api/g1/meta/cp',
        `{"n":${i}}`,
      ]),
    );
  });
});

describe('Journal of deferred exchanges (issue 22)', () => {
  /** A deferred exchange that counts its builds and releases. */
  function deferred(body: string) {
    const counts = { built: 0, released: 0 };
    return {
      counts,
      exchange: { build: () => (counts.built++, exchange(body)), release: () => void counts.released++ },
    };
  }

  it('builds an exchange once, when first read, and releases it then', () => {
    const journal = new Journal(3);
    const one = deferred('1');
    journal.add(one.exchange, 1);
    expect(one.counts).toEqual({ built: 0, released: 0 });
    expect(journal.get(1)?.responseBody).toBe('1');
    expect(journal.exchanges()[0]?.entry.id).toBe(1);
    expect(one.counts).toEqual({ built: 1, released: 1 });
  });

  it('releases an unread exchange once when it is forgotten (ring, byte budget) or cleared, and never builds it', () => {
    const journal = new Journal(2, 10);
    const made = Array.from({ length: 6 }, (_, i) => deferred(String(i)));
    for (const { exchange } of made.slice(0, 3)) journal.add(exchange, 1);
    expect(made.map((m) => m.counts.released)).toEqual([1, 0, 0, 0, 0, 0]);
    journal.add(made[3]!.exchange, 10);
    expect(journal.exchanges().map((x) => x.entry.id)).toEqual([4]);
    expect(made.map((m) => m.counts.released)).toEqual([1, 1, 1, 1, 0, 0]);
    journal.add(made[4]!.exchange, 1);
    journal.add(made[5]!.exchange, 1);
    journal.clear();
    expect(journal.exchanges()).toEqual([]);
    expect(made.map((m) => m.counts)).toEqual([
      ...Array(3).fill({ built: 0, released: 1 }),
      { built: 1, released: 1 },
      { built: 0, released: 1 },
      { built: 0, released: 1 },
    ]);
    journal.add(exchange('after'));
    expect(journal.exchanges().map((x) => [x.entry.id, x.responseBody])).toEqual([[7, 'after']]);
  });

  it('builds for its listeners at once, and with a limit of 0 keeps nothing', () => {
    const journal = new Journal(0);
    const heard: number[] = [];
    const one = deferred('1');
    journal.add(one.exchange);
    journal.subscribe((x) => heard.push(x.entry.id));
    const two = deferred('2');
    journal.add(two.exchange);
    expect(heard).toEqual([2]);
    expect([one.counts, two.counts]).toEqual([
      { built: 0, released: 1 },
      { built: 1, released: 1 },
    ]);
    expect(journal.exchanges()).toEqual([]);
  });
});

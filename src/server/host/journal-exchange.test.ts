import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import type { Finding } from '../../findings/index.js';
import { routeOf, type Plan } from '../../routes/index.js';
import { Journal, journalView, type JournalView } from '../../journal/index.js';
import { DEFAULT_POLICY, decodeComponent } from '../../normalise/index.js';
import type { ServerContext } from '../context.js';
import { journalExchange, type SentAnswer } from './journal-exchange.js';

const FINDINGS: readonly Finding[] = Object.freeze([{ parameter: '_ts', rule: 'ts-skew', message: '_ts is far' }]);
const ROUTE = routeOf('/api/g1/meta/cp');
/** The plan the routes made: a scenario's answer, step 2 of 3 (its answer is not read: the journal takes what was sent). */
const PLAN: Plan = {
  kind: 'answer',
  route: ROUTE,
  findings: FINDINGS,
  delayMs: 0,
  answer: { status: 200, headers: {}, body: '' },
  scenario: 'default',
  step: '2/3',
};
const SENT_HEADERS = Object.freeze({
  'content-type': 'application/json; charset=utf-8',
  'x-mockvideo-scenario': 'default',
  'x-mockvideo-step': '2/3',
});

function contextOf(journal: Journal): ServerContext {
  return { journal, policy: DEFAULT_POLICY } as unknown as ServerContext;
}

function requestOf(headers: IncomingMessage['headers'], method = 'GET'): IncomingMessage {
  return { method, headers } as IncomingMessage;
}

/** What the journal must give for one exchange: the entry fields and the redacted view, made straight from the facts. */
function expected(id: number, search: string, headers: Record<string, string>, sent: SentAnswer, receivedAt: number) {
  const view = journalView(
    {
      method: 'GET',
      path: '/api/g1/meta/cp',
      search,
      requestHeaders: headers,
      status: sent.status,
      responseHeaders: sent.headers as Record<string, string>,
      body: sent.body,
    },
    DEFAULT_POLICY,
  );
  const query: Record<string, string[]> = {};
  for (const [name, value] of view.rawQuery) (query[decodeComponent(name)] ??= []).push(decodeComponent(value));
  return {
    entry: {
      id,
      time: new Date(receivedAt).toISOString(),
      operation: 'meta/cp',
      query,
      scenario: 'default',
      status: sent.status,
      durationMs: 1.23,
      findings: FINDINGS,
      match: null,
      fault: null,
      step: '2/3',
    },
    method: 'GET',
    path: '/api/g1/meta/cp',
    rawQuery: view.rawQuery,
    requestHeaders: view.requestHeaders,
    responseHeaders: view.responseHeaders,
    responseBody: view.responseBody,
    answerBody: view.answerBody,
  };
}

describe('journalExchange keeps reused records (issue 22: nothing new on the heap per request)', () => {
  it('gives every exchange back as sent, redacted, after the ring came round many times and records were reused', () => {
    const journal = new Journal(5);
    const context = contextOf(journal);
    const sent: SentAnswer = { status: 200, headers: SENT_HEADERS, body: '{"result":1}' };
    const receivedAt = Date.UTC(2026, 10, 24, 2, 30);
    const facts = (i: number) => ({
      search: `_st=secret-token-${i}&_sdevid=${String(i).padStart(8, '0')}&name=%C3%A9t%C3%A9&i=${i}`,
      // Node gives header values as latin1 text; arrays (set-cookie) are joined with ", ".
      headers: {
        host: '127.0.0.1:8787',
        'user-agent': `Phone/${i} (\u00e9t\u00e9)`,
        cookie: `sid=secret-${i}; ab=true`,
        'x-list': ['a', `b${i}`],
      } as IncomingMessage['headers'],
    });
    for (let i = 1; i <= 23; i++) {
      const { search, headers } = facts(i);
      journalExchange(
        context,
        requestOf(headers),
        { operation: 'meta/cp', path: '/api/g1/meta/cp', search },
        PLAN,
        receivedAt + i,
        1.2345,
        sent,
      );
      // Read some as they come (built early, released early), leave others unread until forgotten.
      if (i % 3 === 0) expect(journal.get(i)?.entry.id).toBe(i);
    }
    const kept = journal.exchanges();
    expect(kept.map((x) => x.entry.id)).toEqual([19, 20, 21, 22, 23]);
    for (const x of kept) {
      const { search, headers } = facts(x.entry.id);
      const record = Object.fromEntries(
        Object.entries(headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : String(value)]),
      );
      expect(x).toEqual(expected(x.entry.id, search, record, sent, receivedAt + x.entry.id));
      expect(x.entry.query.i).toEqual([String(x.entry.id)]);
      expect(x.entry.query.name).toEqual(['\u00e9t\u00e9']);
      expect(JSON.stringify(x)).not.toContain('secret-');
    }
  });

  it('keeps a request too large for its record, or with characters beyond latin1, as strings, with the same result', () => {
    const journal = new Journal(5);
    const context = contextOf(journal);
    const sent: SentAnswer = { status: 200, headers: SENT_HEADERS, body: '{}' };
    const long = 'x'.repeat(3000);
    const cases: Array<{ search: string; headers: Record<string, string> }> = [
      { search: `q=${long}`, headers: { host: 'h' } },
      { search: 'q=1', headers: { host: 'h', 'x-long': long } },
      { search: 'q=2', headers: { host: 'h', 'x-wide': '\u00ff'.repeat(1500) } },
      // Characters beyond latin1 (Node never gives them in a target or header, but a caller might).
      { search: 'q=\u20ac', headers: { host: 'h' } },
      { search: 'q=3', headers: { host: 'h', 'x-euro': `${'e'.repeat(70)}\u20ac` } },
    ];
    for (const { search, headers } of cases)
      journalExchange(
        context,
        requestOf(headers),
        { operation: 'meta/cp', path: '/api/g1/meta/cp', search },
        PLAN,
        0,
        1.23,
        sent,
      );
    expect(journal.exchanges()).toEqual(
      cases.map(({ search, headers }, i) => expected(i + 1, search, headers, sent, 0)),
    );
  });

  it('journals what was planned, never an invented fault: a hang and a reset as such, a client gone during a delay as that delay, status 0', () => {
    const journal = new Journal();
    const context = contextOf(journal);
    const gone = { status: 0, headers: {}, body: '' };
    const target = { operation: 'meta/cp' as const, path: '/api/g1/meta/cp', search: 'a=1' };
    const drop = (fault: 'hang' | 'reset'): Plan => ({
      kind: 'drop',
      route: ROUTE,
      findings: [],
      delayMs: fault === 'hang' ? 300_000 : 0,
      fault,
      scenario: 'default',
    });
    journalExchange(context, requestOf({ host: 'h' }), target, drop('hang'), 0, 1000, gone);
    journalExchange(context, requestOf({ host: 'h' }), target, drop('reset'), 0, 1, gone);
    journalExchange(
      context,
      requestOf({ host: 'h' }),
      target,
      { ...PLAN, delayMs: 2500, fault: 'delay' },
      0,
      900,
      gone,
    );
    journalExchange(context, requestOf({ host: 'h' }), target, { ...PLAN, delayMs: 800 }, 0, 300, gone);
    expect(journal.exchanges().map((x) => x.entry)).toMatchObject([
      { status: 0, fault: 'hang', scenario: 'default' },
      { status: 0, fault: 'reset', scenario: 'default' },
      { status: 0, fault: 'delay', delayMs: 2500, scenario: 'default' },
      { status: 0, fault: null, delayMs: 800, scenario: 'default' },
    ]);
  });

  it("journals a recording proxy's view as handed over, and the match it decided", () => {
    const journal = new Journal();
    const context = contextOf(journal);
    const view: JournalView = {
      rawQuery: [['a', '<REDACTED>']],
      requestHeaders: { host: 'h' },
      responseHeaders: { 'content-type': 'text/plain' },
      responseBody: 'ok',
      answerBody: { body: 'ok' },
    };
    const pass: Plan = { kind: 'pass', route: ROUTE, findings: FINDINGS, marked: true, match: 'recorded' };
    journalExchange(
      context,
      requestOf({ host: 'h', cookie: 'sid=raw-secret' }),
      { operation: 'meta/cp', path: '/api/g1/meta/cp', search: 'a=raw-secret' },
      pass,
      0,
      5,
      { status: 201, headers: { 'x-mockvideo-match': 'recorded' }, body: 'raw-secret', view },
    );
    const [proxied] = journal.exchanges();
    expect(proxied).toMatchObject({
      entry: { status: 201, match: 'recorded', fault: null, query: { a: ['<REDACTED>'] } },
      path: '/api/g1/meta/cp',
      ...view,
    });
    expect(JSON.stringify(proxied)).not.toContain('raw-secret');
  });
});

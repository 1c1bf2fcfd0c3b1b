import { describe, expect, it } from 'vitest';
import { DEFAULT_POLICY } from '../normalise/index.js';
import { JOURNAL_BODY_LIMIT, journalBody, journalView, keptBody } from './journal-view.js';
import { Journal, type NewExchange } from './journal.js';

function exchange(body: string): NewExchange {
  return {
    entry: { time: '', operation: 'meta/cp', query: {}, scenario: null, status: 200, durationMs: 0, findings: [], match: null, fault: null },
    method: 'GET',
    path: '/api/g1/meta/cp',
    rawQuery: [],
    requestHeaders: {},
    responseHeaders: {},
    responseBody: body,
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
  it('cuts a body at 64 KiB, naming the recording that holds it all', () => {
    const body = 'y'.repeat(200_000);
    expect(journalBody(body, 'meta-cp/0a1b2c3d4e5f-000.json')).toBe(`${'y'.repeat(JOURNAL_BODY_LIMIT)}\n[mockvideo] body cut at ${JOURNAL_BODY_LIMIT} of 200000 characters: the whole body is in the recording meta-cp/0a1b2c3d4e5f-000.json.`);
    expect(journalBody(keptBody(body))).toMatch(/body cut at 65536 of 200000 characters: the whole body was not kept\.$/);
  });

  it('redacts with the recordings\' function: the token and its echoes, secret cookies; identifiers stay for filtering', () => {
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
      rawQuery: [['_st', '<SERVICE_TOKEN>'], ['_sdevid', 'a'.repeat(64)]],
      requestHeaders: { cookie: 'ab=true; sid=<REDACTED>' },
      responseHeaders: { 'x-echo': '<SERVICE_TOKEN>' },
      responseBody: '{"echo":"<SERVICE_TOKEN>"}',
    });
  });
});

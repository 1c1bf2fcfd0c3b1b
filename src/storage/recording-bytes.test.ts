import fc from 'fast-check';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_POLICY, formatRecording, matchKey, type Recording } from '../normalise/index.js';
import { parseRecordingQuickly } from '../normalise/recording-check.js';
import { parseRecording } from '../normalise/recording-schema.js';
import { parseRecordingBytes } from './recording-bytes.js';
import { forEachRecording, forEachRecordingRequest } from './read-recordings.js';

/** What `JSON.parse` of the UTF-8 text gives: the value, or the error's message. */
function utf8Reading(bytes: Buffer): { value?: unknown; error?: string } {
  try {
    return { value: JSON.parse(bytes.toString('utf8')) };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

function fastReading(bytes: Buffer): { value?: unknown; error?: string; bodyUndecoded?: boolean } {
  try {
    const { value, bodyUndecoded } = parseRecordingBytes(bytes, false);
    return { value, bodyUndecoded };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

/** `value` with `response.body` set to `body` (a copy), for comparing everything else. */
function withBody(value: unknown, body: unknown): unknown {
  const copy = structuredClone(value) as { response?: { body?: unknown } };
  if (copy && typeof copy === 'object' && copy.response && typeof copy.response === 'object') copy.response.body = body;
  return copy;
}

/** Checks that the fast reading agrees with the UTF-8 one: the same value (but an undecoded body), the same error, the same verdicts. */
function expectSameReading(bytes: Buffer): void {
  const exact = utf8Reading(bytes);
  const fast = fastReading(bytes);
  expect(fast.error).toBe(exact.error);
  if (exact.error) return;
  if (fast.bodyUndecoded) {
    // A string still (what the checks look at), not the body's text.
    expect(typeof (fast.value as { response: { body: unknown } }).response.body).toBe('string');
    expect(withBody(fast.value, 'BODY')).toEqual(withBody(exact.value, 'BODY'));
  } else expect(fast.value).toEqual(exact.value);
  // The checks give the same verdict and problems (neither looks into the body's text).
  expect(parseRecordingQuickly(fast.value, 'f.json')).toEqual(withBodyVerdict(parseRecordingQuickly(exact.value, 'f.json'), fast));
  expect(parseRecording(fast.value, 'f.json').ok).toBe(parseRecording(exact.value, 'f.json').ok);
  expect(problemsOf(parseRecording(fast.value, 'f.json'))).toEqual(problemsOf(parseRecording(exact.value, 'f.json')));
}

/** A verdict on the exact value, its recording's body replaced by the fast value's (for comparing with toEqual). */
function withBodyVerdict(verdict: ReturnType<typeof parseRecordingQuickly>, fast: { value?: unknown }) {
  if (!verdict.ok) return verdict;
  return { ok: true, recording: fast.value };
}

function problemsOf(verdict: ReturnType<typeof parseRecording>) {
  return verdict.ok ? [] : verdict.problems;
}

function recording(overrides: { body?: string; region?: string; userAgent?: string; recordedAt?: string; path?: string } = {}): Recording {
  const query = [['_region', overrides.region ?? 'IN']] as const;
  return {
    operation: 'meta/cp',
    matchKey: matchKey('GET', 'meta/cp', query, DEFAULT_POLICY),
    recordedAt: overrides.recordedAt ?? '2026-11-23T00:00:00.000Z',
    request: { method: 'GET', path: overrides.path ?? '/api/g1/meta/cp', query: query.map(([k, v]) => [k, v]), headers: { 'user-agent': overrides.userAgent ?? 'okhttp/4.12.0' } },
    response: { status: 200, headers: { 'content-type': 'application/json; charset=utf-8' }, body: overrides.body ?? '{"data":[]}' },
  };
}

const file = (recording: Recording) => Buffer.from(formatRecording(recording));

describe('parseRecordingBytes without the body (replay of a large folder)', () => {
  it('leaves a non-ASCII body undecoded and reads every other field as the UTF-8 reading does', () => {
    const bytes = file(recording({ body: '{"title":"दिल की बातें","name":"小熊的冒险 ✨🏏"}' }));
    expect(parseRecordingBytes(bytes, false).bodyUndecoded).toBe(true);
    expect(parseRecordingBytes(bytes, true)).toEqual({ value: JSON.parse(bytes.toString('utf8')), bodyUndecoded: false });
    expectSameReading(bytes);
  });

  it('reads a file as UTF-8 when a string other than the body is not ASCII (query, header, path, date, key)', () => {
    for (const bytes of [
      file(recording({ body: 'é', region: 'Zürich' })),
      file(recording({ body: 'é', userAgent: 'Pläyer/1' })),
      file(recording({ body: 'é', path: '/api/g1/meta/cpé' })),
      file(recording({ body: 'é', recordedAt: '2026-11-23 (Tü)' })),
      Buffer.from(formatRecording(recording({ body: 'é' })).replace('"user-agent"', '"üser-agent"')),
    ]) {
      expect(parseRecordingBytes(bytes, false).bodyUndecoded).toBe(false);
      expectSameReading(bytes);
    }
  });

  it('agrees with the UTF-8 reading on escapes beyond ASCII, invalid UTF-8, a byte-order mark and broken JSON', () => {
    const text = formatRecording(recording({ body: 'é' }));
    const cases = [
      // Escapes: of Latin-1 characters (that could pass for UTF-8 bytes), beyond, and a surrogate pair.
      text.replace('"body": "é"', '"body": "\\u00c3\\u00a9 é"'),
      text.replace('"body": "é"', '"body": "\\u4e2d\\ud83c\\udfcf é"'),
      text.replace('"okhttp/4.12.0"', '"okhttp/\\u00e9"').replace('"body": "é"', '"body": "ü"'),
      `\ufeff${text}`,
      text.replace('"body": "é"', '"body": "é'),
      text.replace('"status": 200', '"status": 2é0'),
      text.replace('"status": 200', '"status": "é"'),
      text.replace('"body": "é"', '"body": 5, "bodyBase64": "é"'),
    ].map((t) => Buffer.from(t));
    // Invalid UTF-8 in the body and in a header.
    cases.push(Buffer.concat([Buffer.from(text.split('"body": "é"')[0]!), Buffer.from('"body": "\xff\xfe é"', 'latin1'), Buffer.from(text.split('"body": "é"')[1]!)]));
    cases.push(Buffer.from(text.replace('okhttp', 'ok\u0000http').replace('\u0000', '\\u0000')));
    for (const bytes of cases) expectSameReading(bytes);
  });

  it('agrees with the UTF-8 reading on any text in the body, query, headers and keys (property)', () => {
    const text = fc.string({ unit: 'binary', maxLength: 12 });
    fc.assert(
      fc.property(text, text, text, text, fc.boolean(), (body, region, userAgent, headerName, escape) => {
        const made = recording({ body, region, userAgent });
        made.response.headers = { [headerName || 'x']: body };
        let formatted = formatRecording(made);
        // Sometimes with every character beyond ASCII written as an escape, as other writers may.
        if (escape) formatted = formatted.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
        expectSameReading(Buffer.from(formatted));
      }),
      { numRuns: 400 },
    );
  });
});

describe('forEachRecordingRequest', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mockvideo-read-requests-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads the same recordings and problems as forEachRecording, with the responses while they are wanted', () => {
    mkdirSync(join(dir, 'meta-cp'));
    const files = [recording({ body: 'ascii', region: 'A' }), recording({ body: 'दिल', region: 'B' }), recording({ body: '小熊', region: 'C' }), recording({ body: 'ü', region: 'Zürich' })];
    files.forEach((r, i) => writeFileSync(join(dir, 'meta-cp', `${String(i).padStart(12, '0')}-000.json`), formatRecording(r)));
    writeFileSync(join(dir, 'meta-cp', '00000000000f-000.json'), '{"operation": "méta"');

    const whole: Array<{ name: string; recording: Recording }> = [];
    const wholeProblems = forEachRecording(dir, (named) => whole.push(named), parseRecordingQuickly);
    const read: Array<{ name: string; request: Recording['request']; response: Recording['response'] | undefined }> = [];
    let asked = 0;
    const problems = forEachRecordingRequest(dir, (name, _operation, request, response) => read.push({ name, request, response }), parseRecordingQuickly, () => ++asked <= 2);

    expect(problems).toEqual(wholeProblems);
    expect(problems).toHaveLength(1);
    expect(read.map((r) => [r.name, r.request])).toEqual(whole.map((r) => [r.name, r.recording.request]));
    // Wanted for the first two files: given whole. Not wanted: a non-ASCII body is not given; an ASCII or UTF-8-read one may be.
    expect(read[0]!.response).toEqual(whole[0]!.recording.response);
    expect(read[1]!.response).toEqual(whole[1]!.recording.response);
    expect(read[2]!.response).toBeUndefined();
    expect(read[3]!.response).toEqual(whole[3]!.recording.response);
  });
});

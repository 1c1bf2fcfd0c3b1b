import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bodyBytes, fromBase64 } from './body.js';
import { DEFAULT_POLICY, REDACTED } from './policy.js';
import { splitQuery } from './query.js';
import { formatRecording } from './recording.js';
import { buildRecording, encodedForms, type Exchange } from './redact.js';

const TOKEN = 'made-up token/with+odd&chars';
const DEVICE = 'ab'.repeat(32);

function exchange(body: string | Uint8Array, extra: Partial<Exchange> = {}): Exchange {
  return {
    method: 'GET',
    path: '/api/g1/ad_config',
    query: splitQuery(`_sdevid=${DEVICE}&_st=${encodeURIComponent(TOKEN)}&_nonce=1&_region=IN`),
    requestHeaders: { Host: 'x', Cookie: 'sid=made-up-cookie-1234', 'User-Agent': 'ua' },
    status: 200,
    responseHeaders: { 'Content-Type': 'application/json', 'Set-Cookie': 'sid=made-up-cookie-1234; Path=/', Date: 'today' },
    body: typeof body === 'string' ? new TextEncoder().encode(body) : body,
    recordedAt: '2026-01-01T00:00:00.000Z',
    ...extra,
  };
}

describe('buildRecording', () => {
  it('stores the token as <SERVICE_TOKEN>, identifiers and credential headers as <REDACTED>', () => {
    const { recording } = buildRecording(exchange('{}'), DEFAULT_POLICY);
    expect(recording.request.query).toEqual([['_sdevid', REDACTED], ['_st', '<SERVICE_TOKEN>'], ['_nonce', '1'], ['_region', 'IN']]);
    expect(recording.request.headers).toEqual({ cookie: REDACTED, 'user-agent': 'ua' });
    expect(recording.response.headers).toEqual({ 'content-type': 'application/json', 'set-cookie': REDACTED });
    expect(recording.matchKey).toBe('{"method":"GET","operation":"ad_config","query":{"_region":["IN"]}}');
  });

  it('replaces leaks of every form of the raw values in body and headers, and counts them', () => {
    const forms = encodedForms(TOKEN);
    expect(forms).toEqual(expect.arrayContaining([TOKEN, encodeURIComponent(TOKEN), encodeURIComponent(TOKEN).toLowerCase().replace(/%2f/g, '%2f'), 'made-up+token%2Fwith%2Bodd%26chars', 'made-up token/with+odd\\u0026chars']));
    const body = JSON.stringify({ a: forms.join(' | '), device: DEVICE, cookie: 'made-up-cookie-1234' });
    const { recording, leaks } = buildRecording(exchange(body, { responseHeaders: { 'X-Echo': `t=${encodeURIComponent(TOKEN)}` } }), DEFAULT_POLICY);
    const text = formatRecording(recording);
    for (const form of [...forms, DEVICE, 'made-up-cookie-1234']) expect(text).not.toContain(form);
    expect(recording.response.headers['x-echo']).toBe('t=<SERVICE_TOKEN>');
    expect(leaks).toBeGreaterThan(5);
  });

  it('replaces a percent-encoded leak whose escapes mix upper and lower case, in text and binary bodies', () => {
    const mixed = 'made-up%20token%2fwith%2Bodd%26chars';
    const plus = 'made-up+token%2Fwith%2bodd%26chars';
    const { recording, leaks } = buildRecording(exchange(JSON.stringify({ a: mixed, b: plus })), DEFAULT_POLICY);
    expect(recording.response.body).toBe(JSON.stringify({ a: '<SERVICE_TOKEN>', b: '<SERVICE_TOKEN>' }));
    expect(leaks).toBe(2);
    const binary = buildRecording(exchange(Uint8Array.from([0xff, ...new TextEncoder().encode(mixed), 0x00])), DEFAULT_POLICY).recording;
    expect(new TextDecoder().decode(fromBase64(binary.response.bodyBase64!).subarray(1, -1))).toBe('<SERVICE_TOKEN>');
  });

  it('scans a binary body too, and keeps its other bytes', () => {
    const bytes = new Uint8Array([0xff, 0xfe, ...new TextEncoder().encode(`x${DEVICE}y`), 0x00]);
    const { recording } = buildRecording(exchange(bytes), DEFAULT_POLICY);
    expect(recording.response.bodyBase64).toBeDefined();
    expect([...fromBase64(recording.response.bodyBase64!)]).toEqual([0xff, 0xfe, ...new TextEncoder().encode(`x${REDACTED}y`), 0x00]);
  });

  it('stores a UTF-8 body as its exact text, \\u0026 escapes and all', () => {
    const text = '{"data":{"t":"a?x=1\\u0026y=हि 🎬"},"msg":"OK","result":1}';
    const { recording } = buildRecording(exchange(text), DEFAULT_POLICY);
    expect(recording.response.body).toBe(text);
    expect(new TextDecoder().decode(bodyBytes(recording.response))).toBe(text);
  });

  it('never writes any encoding of a random token, wherever the upstream echoes it', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', minLength: 4, maxLength: 24 }).filter((s) => s.trim().length >= 4 && !/[<>]/.test(s)), (token) => {
        const query = splitQuery(`_st=${encodeURIComponent(token)}&_region=IN`);
        const body = JSON.stringify({ plain: token, url: `?_st=${encodeURIComponent(token)}`, form: encodeURIComponent(token).replace(/%20/g, '+') }).replace(/&/g, '\\u0026');
        const { recording } = buildRecording(exchange(body, { query }), DEFAULT_POLICY);
        const stored = recording.response.body!;
        return encodedForms(token).every((form) => !stored.includes(form));
      }),
      { numRuns: 200 },
    );
  });
});

describe('formatRecording', () => {
  it('sorts keys, indents by two spaces, keeps a pair on one line, ends with a newline', () => {
    const text = formatRecording(buildRecording(exchange('{}'), DEFAULT_POLICY).recording);
    expect(text.startsWith('{\n  "matchKey": ')).toBe(true);
    expect(text).toContain('\n      ["_region", "IN"]');
    expect(text.endsWith('}\n')).toBe(true);
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { recordedBodyBytes, fromBase64 } from './body.js';
import { DEFAULT_POLICY, REDACTED, resolvePolicy } from './policy.js';
import { splitQuery } from './query.js';
import { formatRecording } from './recording.js';
import { RedactionRefusedError, buildRecording } from './build-recording.js';
import { redactExchange, type Exchange } from './redact.js';

const TOKEN = 'made-up token/with+odd&chars';
const DEVICE = 'ab'.repeat(32);

function exchange(body: string | Uint8Array, extra: Partial<Exchange> = {}): Exchange {
  return {
    method: 'GET',
    path: '/api/g1/ad_config',
    query: splitQuery(`_sdevid=${DEVICE}&_st=${encodeURIComponent(TOKEN)}&_nonce=1&_region=IN`),
    requestHeaders: { Host: 'x', Cookie: 'sid=made-up-cookie-1234', 'User-Agent': 'ua' },
    status: 200,
    responseHeaders: {
      'Content-Type': 'application/json',
      'Set-Cookie': 'sid=made-up-cookie-1234; Path=/',
      Date: 'today',
    },
    body: typeof body === 'string' ? new TextEncoder().encode(body) : body,
    recordedAt: '2026-01-01T00:00:00.000Z',
    ...extra,
  };
}

const b64 = (text: string) => Buffer.from(text).toString('base64');
const hex = (text: string) => Buffer.from(text).toString('hex');
const unicodeEscaped = (text: string) =>
  text
    .split('')
    .map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
    .join('');

describe('buildRecording', () => {
  it('stores the token as <SERVICE_TOKEN>, identifiers and secret cookie values as <REDACTED>', () => {
    const { recording } = buildRecording(exchange('{}'), DEFAULT_POLICY);
    expect(recording.request.query).toEqual([
      ['_sdevid', REDACTED],
      ['_st', '<SERVICE_TOKEN>'],
      ['_nonce', '1'],
      ['_region', 'IN'],
    ]);
    expect(recording.request.headers).toEqual({ cookie: `sid=${REDACTED}`, 'user-agent': 'ua' });
    expect(recording.response.headers).toEqual({
      'content-type': 'application/json',
      'set-cookie': `sid=${REDACTED}; Path=/`,
    });
    expect(recording.matchKey).toBe('{"method":"GET","operation":"ad_config","query":{"_region":["IN"]}}');
  });

  it('keeps ordinary cookies and cookie attributes, and never searches for their values (issue 21.1)', () => {
    const body = '{"data":{"enabled":"true","url":"/api/g1/x?_region=IN&lang=en_IN"},"msg":"OK","result":1}';
    const { recording, redactions } = buildRecording(
      exchange(body, {
        query: splitQuery(`_st=${encodeURIComponent(TOKEN)}&_region=IN&lang=en_IN`),
        requestHeaders: { cookie: 'ab=true; region=IN; lang=en_IN' },
        responseHeaders: {
          'set-cookie': 'sid=x1y2z3; Path=/api/g1; Expires=Wed, 21 Oct 2026 07:28:00 GMT, ab=true; Path=/',
        },
      }),
      DEFAULT_POLICY,
    );
    expect(recording.request.path).toBe('/api/g1/ad_config');
    expect(recording.response.body).toBe(body);
    expect(recording.request.headers.cookie).toBe('ab=true; region=IN; lang=en_IN');
    expect(recording.response.headers['set-cookie']).toBe(
      `sid=${REDACTED}; Path=/api/g1; Expires=Wed, 21 Oct 2026 07:28:00 GMT, ab=true; Path=/`,
    );
    expect(recording.matchKey).toBe(
      '{"method":"GET","operation":"ad_config","query":{"_region":["IN"],"lang":["en_IN"]}}',
    );
    expect(redactions).toEqual([]);
  });

  it('treats the cookies named with secretCookies as secret, and `*` as every cookie', () => {
    const parts = (names: string[]) =>
      redactExchange(
        exchange('{}', { requestHeaders: { cookie: 'ab=true; prefs=made-up-prefs-value' } }),
        resolvePolicy({ secretCookies: names }),
      ).requestHeaders.cookie;
    expect(parts([])).toBe('ab=true; prefs=made-up-prefs-value');
    expect(parts(['prefs'])).toBe(`ab=true; prefs=${REDACTED}`);
    expect(parts(['*'])).toBe(`ab=${REDACTED}; prefs=${REDACTED}`);
  });

  it('finds the token in every encoding a service uses and says where and how (issue 21.3)', () => {
    const echoes = {
      raw: TOKEN,
      percentUpper: encodeURIComponent(TOKEN),
      percentLower: encodeURIComponent(TOKEN).replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase()),
      form: encodeURIComponent(TOKEN).replace(/%20/g, '+'),
      php: TOKEN.replace(/\//g, '\\/'),
      gson: TOKEN.replace(/&/g, '\\u0026'),
      unicode: unicodeEscaped(TOKEN),
      base64: b64(TOKEN),
      base64url: b64(TOKEN).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, ''),
      hex: hex(TOKEN).toUpperCase(),
      inBase64Blob: b64(`{"t":"${TOKEN}"}`),
    };
    const body = `{${Object.entries(echoes)
      .map(([k, v]) => `"${k}":"${v}"`)
      .join(',')}}`;
    const { recording, redactions } = buildRecording(
      exchange(body, { responseHeaders: { 'X-Echo': `t=${b64(TOKEN)}` } }),
      DEFAULT_POLICY,
    );
    const text = formatRecording(recording);
    for (const [name, form] of Object.entries(echoes))
      if (name !== 'inBase64Blob') expect(text, name).not.toContain(form);
    expect(text).not.toContain(b64(TOKEN).slice(8, 24));
    expect(JSON.parse(recording.response.body!).raw).toBe('<SERVICE_TOKEN>');
    expect(recording.response.headers['x-echo']).toBe('t=<SERVICE_TOKEN>');
    const encodings = new Set(redactions.filter((r) => r.secret === '_st').map((r) => r.encoding));
    expect([...encodings].sort()).toEqual(['base64', 'hex', 'json-escape', 'percent', 'raw']);
    expect(redactions).toContainEqual({
      secret: '_st',
      where: 'response.headers.x-echo',
      encoding: 'base64',
      count: 1,
    });
  });

  it('redacts identifiers as whole JSON or URL values only, never inside other text', () => {
    const body = JSON.stringify({
      device: DEVICE,
      link: `https://x.example/p?d=${DEVICE}&n=1`,
      longer: `x${DEVICE}y`,
      note: `id ${DEVICE} seen`,
    });
    const { recording, redactions } = buildRecording(exchange(body), DEFAULT_POLICY);
    expect(JSON.parse(recording.response.body!)).toEqual({
      device: REDACTED,
      link: `https://x.example/p?d=${REDACTED}&n=1`,
      longer: `x${DEVICE}y`,
      note: `id ${DEVICE} seen`,
    });
    expect(redactions).toEqual([{ secret: '_sdevid', where: 'response.body', encoding: 'whole-value', count: 2 }]);
  });

  it('redacts values under a secret or identity name whatever their length: JSON members and URL parameters', () => {
    const body = '{"_st":"abc","_sdevid":"d1","url":"/a?_st=xyz&_region=IN","keep":"abc"}';
    const { recording } = buildRecording(exchange(body), DEFAULT_POLICY);
    expect(recording.response.body).toBe(
      '{"_st":"<SERVICE_TOKEN>","_sdevid":"<REDACTED>","url":"/a?_st=<SERVICE_TOKEN>&_region=IN","keep":"abc"}',
    );
  });

  it('never searches for a value under 8 characters outside its own place', () => {
    const { recording } = buildRecording(
      exchange('{"a":"tok1","b":"dev1"}', { query: splitQuery('_st=tok1&_sdevid=dev1') }),
      DEFAULT_POLICY,
    );
    expect(recording.response.body).toBe('{"a":"tok1","b":"dev1"}');
    expect(recording.request.query).toEqual([
      ['_st', '<SERVICE_TOKEN>'],
      ['_sdevid', REDACTED],
    ]);
  });

  it('refuses loudly when a redaction would change the path or the match key', () => {
    const inPath = exchange('{}', {
      path: `/api/g1/ad_config`,
      query: splitQuery(`_st=${encodeURIComponent(TOKEN)}&ref=${encodeURIComponent(TOKEN)}`),
    });
    expect(() => buildRecording(inPath, DEFAULT_POLICY)).toThrow(RedactionRefusedError);
    expect(() => buildRecording(inPath, DEFAULT_POLICY)).toThrow(
      /Refused to record GET \/api\/g1\/ad_config: _st in request.query.ref \(percent\), and replacing it would change the match key/,
    );
    const volatile = exchange('{}', {
      query: splitQuery(`_st=${encodeURIComponent(TOKEN)}&_nonce=${encodeURIComponent(TOKEN)}`),
    });
    expect(buildRecording(volatile, DEFAULT_POLICY).recording.request.query[1]).toEqual(['_nonce', '<SERVICE_TOKEN>']);
  });

  it('scans a binary body too, and keeps its other bytes', () => {
    const bytes = new Uint8Array([0xff, 0xfe, ...new TextEncoder().encode(`x${TOKEN}y`), 0x00]);
    const { recording } = buildRecording(exchange(bytes), DEFAULT_POLICY);
    expect(recording.response.bodyBase64).toBeDefined();
    expect([...fromBase64(recording.response.bodyBase64!)]).toEqual([
      0xff,
      0xfe,
      ...new TextEncoder().encode('x<SERVICE_TOKEN>y'),
      0x00,
    ]);
  });

  it('stores a UTF-8 body as its exact text, \\u0026 escapes and all', () => {
    const text = '{"data":{"t":"a?x=1\\u0026y=हि 🎬"},"msg":"OK","result":1}';
    const { recording } = buildRecording(exchange(text), DEFAULT_POLICY);
    expect(recording.response.body).toBe(text);
    expect(new TextDecoder().decode(recordedBodyBytes(recording.response))).toBe(text);
  });

  it('finds a --secret-value that no request names (a HAR that already says <SERVICE_TOKEN>)', () => {
    const withValue = resolvePolicy({ secretValues: ['made-up-har-token-1'] });
    const { recording } = buildRecording(
      exchange(`{"echo":"${b64('made-up-har-token-1')}"}`, { query: splitQuery('_st=%3CSERVICE_TOKEN%3E') }),
      withValue,
    );
    expect(recording.response.body).toBe('{"echo":"<SERVICE_TOKEN>"}');
  });
});

/** Tokens made of the characters that encode differently: `/ + = & %`, space, letters and digits. */
const token = fc
  .array(fc.constantFrom('/', '+', '=', '&', '%', ' ', 'a', 'Z', '0', '9', '-', '_', '.', 'é'), {
    minLength: 8,
    maxLength: 40,
  })
  .map((chars) => chars.join(''))
  .filter((t) => t.trim().length >= 8);

/** Echo encodings, written out here independently of the code. */
const ECHOES: Record<string, (t: string) => string> = {
  raw: (t) => t,
  percent: (t) => encodeURIComponent(t),
  percentLower: (t) => encodeURIComponent(t).replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase()),
  form: (t) => encodeURIComponent(t).replace(/%20/g, '+'),
  // Inside a deep link nested in another (the contract's `default`, `back_scheme`): encoded twice.
  percentTwice: (t) => encodeURIComponent(encodeURIComponent(t)),
  percentTwiceLower: (t) => encodeURIComponent(encodeURIComponent(t).replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase())),
  formTwice: (t) => encodeURIComponent(encodeURIComponent(t).replace(/%20/g, '+')),
  base64Twice: (t) => encodeURIComponent(encodeURIComponent(b64(t))),
  json: (t) => JSON.stringify(t).slice(1, -1),
  php: (t) => JSON.stringify(t).slice(1, -1).replace(/\//g, '\\/'),
  gson: (t) =>
    JSON.stringify(t)
      .slice(1, -1)
      .replace(/[=&<>']/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
  unicode: unicodeEscaped,
  base64: b64,
  base64NoPad: (t) => b64(t).replace(/=+$/, ''),
  base64url: (t) => b64(t).replace(/\+/g, '-').replace(/\//g, '_'),
  hex,
  hexUpper: (t) => hex(t).toUpperCase(),
};

describe('redaction property', () => {
  it('leaves 0 hits of a random token echoed in random encodings anywhere in the recording', () => {
    fc.assert(
      fc.property(
        token,
        fc.array(fc.constantFrom(...Object.keys(ECHOES)), { minLength: 1, maxLength: 6 }),
        (secret, picks) => {
          const echoes = picks.map((p) => ECHOES[p]!(secret));
          const body = `{"data":{${echoes.map((e, i) => `"e${i}":"${e}"`).join(',')}},"msg":"OK","result":1}`;
          const { recording } = buildRecording(
            exchange(body, {
              query: splitQuery(`_st=${encodeURIComponent(secret)}&_region=IN`),
              responseHeaders: { 'x-echo': echoes[0]! },
            }),
            DEFAULT_POLICY,
          );
          const text = formatRecording(recording);
          for (const encode of Object.values(ECHOES)) expect(text).not.toContain(encode(secret));
        },
      ),
    );
  });
});

describe('a token in a nested deep link (issue 39 H4)', () => {
  it('is found encoded twice, either hex case, under another name or its own, in the body and every header', () => {
    const link = (token: string, name: string) =>
      `mv://cp?action=play&default=${encodeURIComponent(`mv://cp/home?${name}=${encodeURIComponent(token)}&ref=x`)}`;
    const deep = link(TOKEN, 'session');
    const lower = deep.replace(/%(?:25)?[0-9A-F]{2}/g, (e) => e.toLowerCase());
    const named = link('short', '_st');
    const { recording, redactions } = buildRecording(
      exchange(JSON.stringify({ data: { target: deep, lower, named } }).replace(/&/g, '\\u0026'), {
        responseHeaders: { location: deep, 'x-deep-link': lower },
      }),
      DEFAULT_POLICY,
    );
    const text = formatRecording(recording);
    for (const encode of Object.values(ECHOES)) expect(text).not.toContain(encode(TOKEN));
    expect(text).not.toContain('short');
    expect(recording.response.headers.location).toBe(
      `mv://cp?action=play&default=${encodeURIComponent('mv://cp/home?session=')}<SERVICE_TOKEN>${encodeURIComponent('&ref=x')}`,
    );
    expect(redactions).toContainEqual({
      secret: '_st',
      where: 'response.headers.location',
      encoding: 'percent',
      count: 1,
    });
    expect(redactions).toContainEqual({ secret: '_st', where: 'response.body', encoding: 'named', count: 1 });
  });
});

describe('redaction of empty values', () => {
  it('never finds a secret in an empty parameter (a pattern with nothing to match must match nothing)', () => {
    const { recording, redactions } = buildRecording(
      exchange('{}', { query: splitQuery(`_st=${encodeURIComponent(TOKEN)}&_eset=&ref=`) }),
      DEFAULT_POLICY,
    );
    expect(recording.request.query).toEqual([
      ['_st', '<SERVICE_TOKEN>'],
      ['_eset', ''],
      ['ref', ''],
    ]);
    expect(redactions).toEqual([]);
  });
});

describe('identifiers in nested JSON', () => {
  it('redacts an identifier as a whole string value of JSON inside a JSON string', () => {
    const body = JSON.stringify({ payload: JSON.stringify({ device: DEVICE, note: `x${DEVICE}` }) });
    const { recording } = buildRecording(exchange(body), DEFAULT_POLICY);
    expect(JSON.parse(JSON.parse(recording.response.body!).payload)).toEqual({ device: REDACTED, note: `x${DEVICE}` });
  });
});

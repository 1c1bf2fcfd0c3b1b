import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fromBase64, toBase64 } from './body.js';
import { parseRecordingQuickly } from './recording-check.js';
import { parseRecording } from './recording-schema.js';

/** A valid recording file value (fresh each call). */
function valid(): Record<string, any> {
  return {
    operation: 'meta/cp',
    matchKey: '{"method":"GET","operation":"meta/cp","query":{}}',
    recordedAt: '2026-11-22T00:00:00.000Z',
    request: {
      method: 'GET',
      path: '/api/g1/meta/cp',
      query: [
        ['ref', ''],
        ['a', 'b'],
      ],
      headers: { 'user-agent': 'x' },
    },
    response: {
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: '{}',
      latency: { headersMs: 1, lastByteMs: 2 },
    },
  };
}

/** Each change of a valid value the schema (or the rules after it) refuses, or accepts. */
const CHANGES: Array<[string, (r: Record<string, any>) => void]> = [
  ['valid as it is', () => {}],
  [
    'base64 body instead',
    (r) => {
      delete r.response.body;
      r.response.bodyBase64 = 'AAEC';
    },
  ],
  [
    'no latency',
    (r) => {
      delete r.response.latency;
    },
  ],
  [
    'an unknown top-level key',
    (r) => {
      r.extra = 1;
    },
  ],
  [
    'an unknown request key',
    (r) => {
      r.request.extra = 1;
    },
  ],
  [
    'an unknown response key',
    (r) => {
      r.response.extra = 1;
    },
  ],
  [
    'an unknown latency key',
    (r) => {
      r.response.latency.extra = 1;
    },
  ],
  [
    'an unknown operation',
    (r) => {
      r.operation = 'meta/nope';
    },
  ],
  [
    'no matchKey',
    (r) => {
      delete r.matchKey;
    },
  ],
  [
    'a non-date recordedAt',
    (r) => {
      r.recordedAt = 'yesterday';
    },
  ],
  [
    'a lower-case method',
    (r) => {
      r.request.method = 'get';
    },
  ],
  [
    'a path without a slash',
    (r) => {
      r.request.path = 'api/g1/meta/cp';
    },
  ],
  [
    'the path of another operation',
    (r) => {
      r.request.path = '/api/g1/meta/setting';
    },
  ],
  [
    'a query pair of three',
    (r) => {
      r.request.query.push(['a', 'b', 'c']);
    },
  ],
  [
    'a query pair with a number',
    (r) => {
      r.request.query.push(['a', 1]);
    },
  ],
  [
    'a query object',
    (r) => {
      r.request.query = {};
    },
  ],
  [
    'a header of a number',
    (r) => {
      r.request.headers.n = 1;
    },
  ],
  [
    'headers as an array',
    (r) => {
      r.response.headers = [];
    },
  ],
  [
    'a fractional status',
    (r) => {
      r.response.status = 200.5;
    },
  ],
  [
    'a status of 600',
    (r) => {
      r.response.status = 600;
    },
  ],
  [
    'a status of 99',
    (r) => {
      r.response.status = 99;
    },
  ],
  [
    'a status as text',
    (r) => {
      r.response.status = '200';
    },
  ],
  [
    'a body of a number',
    (r) => {
      r.response.body = 1;
    },
  ],
  [
    'two bodies',
    (r) => {
      r.response.bodyBase64 = 'AA==';
    },
  ],
  [
    'no body',
    (r) => {
      delete r.response.body;
    },
  ],
  [
    'bad base64',
    (r) => {
      delete r.response.body;
      r.response.bodyBase64 = 'A*';
    },
  ],
  [
    'a negative latency',
    (r) => {
      r.response.latency.headersMs = -1;
    },
  ],
  [
    'a latency too long',
    (r) => {
      r.response.latency.lastByteMs = 1e9;
    },
  ],
  [
    'the last byte before the headers',
    (r) => {
      r.response.latency.lastByteMs = 0;
    },
  ],
  [
    'a null request',
    (r) => {
      r.request = null;
    },
  ],
  ['an array', () => {}],
];

describe('parseRecordingQuickly', () => {
  it.each(CHANGES)('agrees with the schema: %s', (label, change) => {
    const value = label === 'an array' ? [valid()] : valid();
    change(value as Record<string, any>);
    const schema = parseRecording(value, 'f.json');
    const quick = parseRecordingQuickly(value, 'f.json');
    expect(quick.ok).toBe(schema.ok);
    // A shape the schema refuses is one "not well-formed" problem; the rules after it are the schema's own words.
    if (!quick.ok && !schema.ok && !quick.problems[0]!.message.startsWith('not a well-formed recording'))
      expect(quick.problems).toEqual(schema.problems);
    if (quick.ok && schema.ok) expect(quick.recording).toEqual(schema.recording);
  });
});

describe('what the wire cannot carry (issues 34.14, 39 H2 and L5)', () => {
  /** Each change the quick check and the schema refuse alike, and the field and words of its problem. */
  const unsendable: Array<[string, (r: Record<string, any>) => void, string, RegExp]> = [
    [
      'transfer-encoding and content-length',
      (r) => Object.assign(r.response.headers, { 'Content-Length': '2', 'Transfer-Encoding': 'chunked' }),
      'response.headers["Content-Length"]',
      /^"Content-Length" is not stored in a recording: mockvideo frames the body itself; remove it$/,
    ],
    [
      'a line feed in a value',
      (r) => (r.response.headers['x-a'] = 'a\nb'),
      'response.headers["x-a"]',
      /^"x-a" has a control character/,
    ],
    [
      'a request header above U+00FF',
      (r) => (r.request.headers['user-agent'] = '日'),
      'request.headers["user-agent"]',
      /U\+00FF/,
    ],
    [
      'a name that is no token',
      (r) => (r.response.headers['a:b'] = 'c'),
      'response.headers["a:b"]',
      /^"a:b" is not a header name/,
    ],
    ['status 100', (r) => (r.response.status = 100), 'response.status', /^100 is an interim answer/],
    ['status 205 with a body', (r) => (r.response.status = 205), 'response.body', /^a 205 answer has no body/],
  ];

  it.each(unsendable)('refuses %s, in the quick check and the schema alike', (_what, change, path, message) => {
    const value = valid();
    change(value);
    for (const parse of [parseRecordingQuickly, parseRecording]) {
      const parsed = parse(value, 'meta-cp/0a1b2c3d4e5f-000.json');
      expect(parsed.ok).toBe(false);
      expect(!parsed.ok && parsed.problems[0]).toMatchObject({ file: 'meta-cp/0a1b2c3d4e5f-000.json', path });
      expect(!parsed.ok && parsed.problems[0]!.message).toMatch(message);
    }
  });

  it('takes 204, 205 and 304 with an empty body, and Latin-1 header values', () => {
    for (const status of [204, 205, 304]) {
      const value = valid();
      Object.assign(value.response, { status, body: '' });
      value.response.headers['x-name'] = 'café\tau lait';
      expect(parseRecordingQuickly(value, 'f.json').ok).toBe(true);
      expect(parseRecording(value, 'f.json').ok).toBe(true);
    }
  });
});

describe('bodyBase64', () => {
  /** A valid recording whose body is `text` as base64. */
  const withBase64 = (text: string) => {
    const value = valid();
    delete value.response.body;
    value.response.bodyBase64 = text;
    return value;
  };

  it('accepts every base64 of whole bytes and nothing replay cannot decode, in the quick check and the schema alike', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 40 }), fc.boolean(), (bytes, unpadded) => {
        const text = unpadded ? toBase64(bytes).replace(/=+$/, '') : toBase64(bytes);
        expect(parseRecording(withBase64(text), 'f.json').ok).toBe(true);
        expect(parseRecordingQuickly(withBase64(text), 'f.json').ok).toBe(true);
      }),
    );
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z0-9+/]{0,12}={0,2}$/), (text) => {
        let decodes = true;
        try {
          fromBase64(text);
        } catch {
          decodes = false;
        }
        // What validate accepts, replay decodes (a stray `=` replay would skip is refused: harmless).
        const accepted = parseRecording(withBase64(text), 'f.json').ok;
        expect(parseRecordingQuickly(withBase64(text), 'f.json').ok).toBe(accepted);
        if (accepted) expect(decodes).toBe(true);
      }),
    );
  });

  it('refuses unused bits set and a lone character, naming the field', () => {
    for (const text of ['YR', 'YR==', 'A', 'QUJDR']) {
      const parse = parseRecording(withBase64(text), 'f.json');
      expect(parse.ok).toBe(false);
      if (!parse.ok) expect(parse.problems[0]!.path).toBe('response.bodyBase64');
    }
  });
});

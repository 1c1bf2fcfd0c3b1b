import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { recordedBodyBytes, storeBody } from './body.js';
import { formatRecording, type Recording } from './recording.js';
import { parseRecording } from './recording-schema.js';

function recordingWith(bytes: Uint8Array): Recording {
  return {
    operation: 'meta/cp',
    matchKey: '{"method":"GET","operation":"meta/cp","query":{}}',
    recordedAt: '2026-11-22T00:00:00.000Z',
    request: { method: 'GET', path: '/api/g1/meta/cp', query: [['ref', '']], headers: {} },
    response: { status: 200, headers: { 'content-type': 'application/json' }, ...storeBody(bytes) },
  };
}

/** Writes a recording file's text and reads it back, as replay does; returns the body bytes. */
function roundTrip(bytes: Uint8Array): Uint8Array {
  const read = parseRecording(JSON.parse(formatRecording(recordingWith(bytes))), 'x.json');
  if (!read.ok) throw new Error(JSON.stringify(read.problems));
  return recordedBodyBytes(read.recording.response);
}

describe('recording format properties', () => {
  it('write → read returns every byte of any body (binary, invalid UTF-8)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2048 }), (bytes) => {
        expect(Buffer.from(roundTrip(bytes)).equals(Buffer.from(bytes))).toBe(true);
      }),
    );
  });

  it('keeps text exactly: \\u0026 escapes, a BOM, any unicode', () => {
    const text = fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: 200 }),
      fc.string({ maxLength: 100 }).map((s) => `\uFEFF{"target":"a?x=1\\u0026y=2","t":${JSON.stringify(s)}}`),
    );
    fc.assert(
      fc.property(text, (s) => {
        const bytes = new TextEncoder().encode(s);
        expect(Buffer.from(roundTrip(bytes)).equals(Buffer.from(bytes))).toBe(true);
      }),
    );
  });

  it('round-trips a very large body', () => {
    const big = new Uint8Array(4 * 1024 * 1024).map((_, i) => (i * 31) % 251);
    expect(Buffer.from(roundTrip(big)).equals(Buffer.from(big))).toBe(true);
  });
});

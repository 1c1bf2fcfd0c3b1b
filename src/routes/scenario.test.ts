import { describe, expect, it } from 'vitest';
import type { PreparedResponse } from '../scenarios/compile.js';
import { preparedAnswer } from './scenario.js';

const prepared = (body: string): PreparedResponse => ({ status: 200, headers: { 'content-type': 'application/json; charset=utf-8' }, body, hasOrigin: body.includes('{origin}') });

describe('preparedAnswer', () => {
  it('keeps one shared answer per scenario, however many scenarios share a prepared response', () => {
    const shared = prepared('{"data":{},"msg":"OK","result":1}');
    const names = Array.from({ length: 50 }, (_, i) => `bench-${i}`);
    const first = names.map((name) => preparedAnswer(shared, name));
    const again = names.map((name) => preparedAnswer(shared, name));
    again.forEach((answer, i) => expect(answer).toBe(first[i]));
    expect(first[7]!.headers['x-mockvideo-scenario']).toBe('bench-7');
  });

  it('answers each origin with its own body, and still answers right beyond the origins it remembers', () => {
    const withOrigin = prepared('{"data":{"thumb":"{origin}/media/thumb/1.png"},"msg":"OK","result":1}');
    const origins = Array.from({ length: 40 }, (_, i) => `http://10.0.2.${i}:8787`);
    for (const origin of origins) expect(JSON.parse(preparedAnswer(withOrigin, 'default', origin).body).data.thumb).toBe(`${origin}/media/thumb/1.png`);
    const last = preparedAnswer(withOrigin, 'default', origins[39]);
    expect(preparedAnswer(withOrigin, 'default', origins[39])).toBe(last);
  });
});

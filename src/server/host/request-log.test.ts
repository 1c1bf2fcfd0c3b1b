import { describe, expect, it, vi } from 'vitest';
import { LineGatherer } from './request-log.js';

describe('LineGatherer (issue 22: log lines without an object each)', () => {
  it('hands over every line, in order, ended by \\n, in batches of at least flushBytes', () => {
    const chunks: Buffer[] = [];
    const lines = new LineGatherer((chunk) => chunks.push(chunk), 100, 1000);
    const sent = Array.from({ length: 50 }, (_, i) => `GET meta/cp  default  200  0.${i} ms${i % 2 ? '  é' : ''}`);
    for (const line of sent) lines.line(line);
    expect(chunks.length).toBeGreaterThan(5);
    for (const chunk of chunks) expect(chunk.length).toBeGreaterThanOrEqual(100);
    lines.flush();
    expect(Buffer.concat(chunks).toString('utf8')).toBe(sent.map((l) => `${l}\n`).join(''));
    // A batch is a copy: later lines never change it.
    const first = chunks[0]!.toString('utf8');
    lines.line('x'.repeat(150));
    expect(chunks[0]!.toString('utf8')).toBe(first);
  });

  it('sends a line longer than its buffer alone, after what was gathered', () => {
    const chunks: string[] = [];
    const lines = new LineGatherer((chunk) => chunks.push(chunk.toString('utf8')), 10, 1000);
    lines.line('short');
    const long = '\u00e9'.repeat(5000);
    lines.line(long);
    lines.flush();
    expect(chunks).toEqual(['short\n', `${long}\n`]);
  });

  it("hands a quiet server's lines over flushMs after the first of them", () => {
    vi.useFakeTimers();
    try {
      const chunks: string[] = [];
      const lines = new LineGatherer((chunk) => chunks.push(chunk.toString('utf8')), 1000, 25);
      lines.line('one');
      lines.line('two');
      vi.advanceTimersByTime(24);
      expect(chunks).toEqual([]);
      vi.advanceTimersByTime(1);
      expect(chunks).toEqual(['one\ntwo\n']);
      lines.flush();
      expect(chunks).toHaveLength(1);
    } finally {
      vi.useRealTimers();
    }
  });
});

import { describe, expect, it } from 'vitest';
import { harLatency, latencyDelayMs, measuredLatency, parseLatencySetting } from './latency.js';

describe('latency', () => {
  it('reads --latency', () => {
    expect(parseLatencySetting('recorded')).toBe('recorded');
    expect(parseLatencySetting('none')).toBe('none');
    expect(parseLatencySetting('0.5')).toBe(0.5);
    expect(parseLatencySetting('2x')).toBe(2);
    expect(() => parseLatencySetting('slow')).toThrow(/--latency slow: expected "recorded", "none" or a factor/);
  });

  it('waits for the last byte, scaled, capped', () => {
    const latency = { headersMs: 120, lastByteMs: 300 };
    expect(latencyDelayMs(latency, 'recorded')).toBe(300);
    expect(latencyDelayMs(latency, 0.5)).toBe(150);
    expect(latencyDelayMs(latency, 'none')).toBe(0);
    expect(latencyDelayMs(undefined, 'recorded')).toBe(0);
    expect(latencyDelayMs({ headersMs: 0, lastByteMs: 100_000 }, 10)).toBe(120_000);
  });

  it('is measured from nanosecond marks', () => {
    expect(measuredLatency(1_000_000_000n, 1_212_340_000n, 1_305_000_000n)).toEqual({
      headersMs: 212.3,
      lastByteMs: 305,
    });
  });

  it('reads HAR timings: headers after blocked, dns, connect, send and wait; -1 counts 0', () => {
    expect(harLatency({ blocked: -1, dns: 2, connect: 10, send: 1, wait: 200, receive: 37.5, ssl: 6 })).toEqual({
      headersMs: 213,
      lastByteMs: 250.5,
    });
    expect(harLatency({ send: 0, wait: 0, receive: 0 })).toBeUndefined();
    expect(harLatency(undefined)).toBeUndefined();
  });
});

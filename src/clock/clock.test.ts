import { describe, expect, it } from 'vitest';
import { Clock, parseClockSetting, parseDuration, parseMoment, resolveNow, resolveNowIn } from './clock.js';

const AT = Date.parse('2026-01-31T12:00:00Z');

describe('parseDuration and parseMoment', () => {
  it('read signed durations in s m h d w y, or plain seconds', () => {
    expect(parseDuration('-2d')).toBe(-2 * 86_400_000);
    expect(parseDuration('+90m')).toBe(5_400_000);
    expect(parseDuration('1y')).toBe(365 * 86_400_000);
    expect(parseDuration('-1d-12h')).toBe(-36 * 3_600_000);
    expect(parseDuration('-3600')).toBe(-3_600_000);
    expect(() => parseDuration('two days')).toThrow(/"two days" is not a duration: .*-2d/);
  });

  it('read ISO 8601 with a zone, or Unix seconds', () => {
    expect(parseMoment('2026-01-31T12:00:00Z')).toBe(AT);
    expect(parseMoment('2026-01-31T13:00:00+01:00')).toBe(AT);
    expect(parseMoment('1769860800')).toBe(AT);
    expect(() => parseMoment('2026-01-31')).toThrow(/not a moment/);
  });
});

describe('Clock', () => {
  it('reads real time, a frozen moment, or either shifted', () => {
    const clock = new Clock({}, () => AT + 1500);
    expect(clock.view().mode).toBe('real');
    expect(clock.nowSeconds()).toBe(AT / 1000 + 1);
    clock.set({ offsetMs: -2 * 86_400_000 });
    expect(clock.view()).toMatchObject({ mode: 'offset', now: '2026-01-29T12:00:01.500Z', offsetMs: -172_800_000 });
    clock.set({ frozenAt: AT });
    expect(clock.view()).toEqual({
      now: '2026-01-31T12:00:00.000Z',
      nowSeconds: AT / 1000,
      mode: 'frozen',
      frozenAt: '2026-01-31T12:00:00.000Z',
      offsetMs: 0,
    });
    clock.set({});
    expect(clock.view()).toMatchObject({ mode: 'real', frozenAt: null, offsetMs: 0 });
  });

  it('is set from the JSON of PUT /__mockvideo/clock, naming a bad field', () => {
    expect(parseClockSetting({ frozen: '2026-01-31T12:00:00Z', offset: '-1h' })).toEqual({
      frozenAt: AT,
      offsetMs: -3_600_000,
    });
    expect(parseClockSetting({ frozen: null })).toEqual({});
    expect(() => parseClockSetting({ at: 1 })).toThrow(/Unknown clock field "at"/);
    expect(() => parseClockSetting({ offset: true })).toThrow(/"offset" must be a duration/);
  });
});

describe('the {now…} placeholder', () => {
  const now = AT / 1000;
  it('becomes the integer Unix time, quotes and all', () => {
    expect(resolveNow('{"updated_at":"{now-2y}","b":"{now}","c":"{now+1d}","d":"not {now}"}', now)).toBe(
      `{"updated_at":${now - 2 * 31_536_000},"b":${now},"c":${now + 86_400},"d":"not {now}"}`,
    );
  });

  it('is read as that integer when a scenario is checked', () => {
    expect(resolveNowIn({ data: [{ updated_at: '{now-1h}', name: '{now}x' }] }, now)).toEqual({
      data: [{ updated_at: now - 3600, name: '{now}x' }],
    });
  });
});

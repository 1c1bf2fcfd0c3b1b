/**
 * mockvideo's clock: real time, frozen at a moment, or shifted by an offset; the time scenario data
 * writes relative to it (`"{now-2y}"`) and the `_ts` check of requests read it. Any runtime.
 * @module
 */
import { MockvideoError } from '../errors.js';

/** Seconds per unit of a duration (`y` is 365 days, `w` 7 days). */
const UNIT_SECONDS: Readonly<Record<string, number>> = { s: 1, m: 60, h: 3600, d: 86_400, w: 604_800, y: 31_536_000 };

/** The latest moment a clock may read, in milliseconds: 9999-12-31T23:59:59.999Z (the last one ISO 8601 writes with four digits). The earliest is the Unix epoch. */
const LATEST_CLOCK_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/** The largest offset a clock takes, in milliseconds: 1,000 years of 365 days either way. */
const MAX_CLOCK_OFFSET_MS = 1000 * 31_536_000 * 1000;

/** A duration as `--clock-offset` and the placeholder write it: signed terms `<integer><unit>`, units s m h d w y. */
const DURATION = /^[+-]?\d+[smhdwy](?:[+-]\d+[smhdwy])*$/;

/**
 * A duration in **milliseconds**: `-2d` (two days back), `+90m`, `1y` (365 days), `-1d-12h`, or a
 * plain number of seconds (`-3600`).
 * @throws MockvideoError (`MV_USAGE`) naming the value and the form.
 */
export function parseDuration(text: string): number {
  const compact = text.replace(/\s+/g, '');
  if (/^[+-]?\d+$/.test(compact)) return boundedOffset(text, Number(compact) * 1000);
  if (!DURATION.test(compact))
    throw new MockvideoError(
      'MV_USAGE',
      `"${text}" is not a duration: write signed terms of <integer><unit>, units s, m, h, d, w, y (365 days), e.g. -2d, +90m or -1d-12h.`,
    );
  let seconds = 0;
  for (const [, sign, amount, unit] of compact.matchAll(/([+-]?)(\d+)([smhdwy])/g))
    seconds += (sign === '-' ? -1 : 1) * Number(amount) * UNIT_SECONDS[unit!]!;
  return boundedOffset(text, seconds * 1000);
}

/** `ms` when its size is at most {@link MAX_CLOCK_OFFSET_MS}. @throws MockvideoError (`MV_USAGE`) naming `text` and the bound. */
function boundedOffset(text: string, ms: number): number {
  if (!(Math.abs(ms) <= MAX_CLOCK_OFFSET_MS))
    throw new MockvideoError(
      'MV_USAGE',
      `"${text}" is too long a duration: the clock moves at most 1000y (365,000 days) either way.`,
    );
  return ms;
}

/** ISO 8601 with a time zone, to the minute at least. */
const ISO_MOMENT = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})$/;

/**
 * A moment in **milliseconds** since the Unix epoch: ISO 8601 with a time zone
 * (`2026-01-31T12:00:00Z`), or Unix time in seconds (`1769860800`).
 * @throws MockvideoError (`MV_USAGE`) naming the value and the forms.
 */
export function parseMoment(text: string | number): number {
  const seconds = typeof text === 'number' || /^\d{1,11}$/.test(text);
  const ms = seconds ? Number(text) * 1000 : ISO_MOMENT.test(text) ? Date.parse(text) : NaN;
  if (!seconds && Number.isNaN(ms))
    throw new MockvideoError(
      'MV_USAGE',
      `"${text}" is not a moment: write ISO 8601 with a time zone, e.g. 2026-01-31T12:00:00Z, or Unix time in seconds.`,
    );
  if (!(ms >= 0 && ms <= LATEST_CLOCK_MS))
    throw new MockvideoError(
      'MV_USAGE',
      `"${text}" is outside the times a clock reads: from 1970-01-01T00:00:00Z (0) to 9999-12-31T23:59:59Z (253402300799).`,
    );
  return ms;
}

/** What a clock is set to: frozen at a moment and/or shifted by an offset (both in milliseconds); neither: real time. */
export interface ClockSetting {
  /** Unix time in milliseconds the clock stands still at; `undefined`: it runs. */
  frozenAt?: number;
  /** Milliseconds added to the (real or frozen) time; default 0. */
  offsetMs?: number;
}

/** The clock as `GET /__mockvideo/health` and `/clock` show it. */
export interface ClockView {
  /** What the clock reads, ISO 8601. */
  now: string;
  /** The same, Unix time in seconds (what `_ts` and `updated_at` hold). */
  nowSeconds: number;
  mode: 'real' | 'frozen' | 'offset';
  /** ISO 8601, when frozen. */
  frozenAt: string | null;
  /** Milliseconds added, 0 for none. */
  offsetMs: number;
}

/**
 * A clock that reads real time, a frozen moment, or either shifted by an offset. One per server:
 * `--clock`, `--clock-offset` and `PUT /__mockvideo/clock` set it; relative times in scenario data
 * and the `_ts` finding read it. The start-up boundary of per-client state never reads it (it is
 * about elapsed time).
 */
export class Clock {
  #setting: ClockSetting = {};
  readonly #real: () => number;

  /** `real`: the real time source, in ms (default `Date.now`; a test may give its own). */
  constructor(setting: ClockSetting = {}, real: () => number = Date.now) {
    this.#real = real;
    this.set(setting);
  }

  /**
   * Sets the clock (replacing the setting before): `{}` makes it real time again.
   * @throws MockvideoError (`MV_USAGE`), the clock unchanged, when it would read before the Unix epoch or after {@link LATEST_CLOCK_MS}.
   */
  set(setting: ClockSetting): void {
    const reads = (setting.frozenAt ?? this.#real()) + (setting.offsetMs ?? 0);
    if (!(reads >= 0 && reads <= LATEST_CLOCK_MS))
      throw new MockvideoError(
        'MV_USAGE',
        `The clock would read ${Number.isFinite(reads) ? `${Math.round(reads / 1000)} (Unix seconds)` : String(reads)}, outside 1970-01-01T00:00:00Z to 9999-12-31T23:59:59Z: nothing changed. Choose a nearer "frozen" moment or a shorter "offset".`,
      );
    this.#setting = {
      ...(setting.frozenAt !== undefined ? { frozenAt: setting.frozenAt } : {}),
      ...(setting.offsetMs ? { offsetMs: setting.offsetMs } : {}),
    };
  }

  /** What it reads, Unix time in **milliseconds**. */
  nowMs(): number {
    return (this.#setting.frozenAt ?? this.#real()) + (this.#setting.offsetMs ?? 0);
  }

  /** What it reads, Unix time in **seconds** (rounded down). */
  nowSeconds(): number {
    return Math.floor(this.nowMs() / 1000);
  }

  /** The clock for people and the admin API. */
  view(): ClockView {
    const now = this.nowMs();
    const { frozenAt, offsetMs = 0 } = this.#setting;
    return {
      now: new Date(now).toISOString(),
      nowSeconds: Math.floor(now / 1000),
      mode: frozenAt !== undefined ? 'frozen' : offsetMs ? 'offset' : 'real',
      frozenAt: frozenAt === undefined ? null : new Date(frozenAt).toISOString(),
      offsetMs,
    };
  }
}

/**
 * The clock as a JSON object or option gives it (`PUT /__mockvideo/clock`, `createHandlers({ clock })`):
 * `frozen` stops it at a moment (ISO 8601 with a time zone, or Unix time in **seconds**), `offset`
 * shifts it by a duration (`"-2d"`, `"+90m"`, or seconds); neither: real time.
 */
export interface ClockFields {
  frozen?: string | number | null;
  offset?: string | number | null;
}

/**
 * Reads a clock setting from its JSON form (`PUT /__mockvideo/clock`): `{"frozen": "2026-01-31T12:00:00Z"}`,
 * `{"offset": "-2d"}`, both, or `{}` for real time. `frozen` takes what {@link parseMoment} takes
 * (or `null`), `offset` what {@link parseDuration} takes.
 * @throws MockvideoError (`MV_USAGE`) naming the field.
 */
export function parseClockSetting(value: unknown): ClockSetting {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new MockvideoError(
      'MV_USAGE',
      'The clock is a JSON object: {"frozen": "2026-01-31T12:00:00Z"}, {"offset": "-2d"}, or {} for real time.',
    );
  const { frozen, offset, ...rest } = value as Record<string, unknown>;
  const unknown = Object.keys(rest)[0];
  if (unknown !== undefined)
    throw new MockvideoError('MV_USAGE', `Unknown clock field "${unknown}": the fields are "frozen" and "offset".`);
  const setting: ClockSetting = {};
  const given = (field: unknown, name: string, expected: string): field is string | number => {
    if (field === undefined || field === null) return false;
    if (typeof field === 'string' || typeof field === 'number') return true;
    throw new MockvideoError('MV_USAGE', `"${name}" must be ${expected}, got ${JSON.stringify(field)}.`);
  };
  if (given(frozen, 'frozen', 'an ISO 8601 time or Unix seconds')) setting.frozenAt = parseMoment(frozen);
  if (given(offset, 'offset', 'a duration such as "-2d"')) setting.offsetMs = parseDuration(String(offset));
  return setting;
}

/**
 * The placeholder of a time relative to the clock in scenario data: a JSON **string** value
 * `"{now}"`, `"{now-2y}"`, `"{now+3d}"`, `"{now-1d-12h}"` (units as {@link parseDuration}) where the
 * contract wants an integer Unix time in seconds (`updated_at`). When the answer is built, the whole
 * string, quotes included, becomes that integer: `"updated_at": "{now-2y}"` is sent as
 * `"updated_at": 1706788800` with the clock at 2026-01-31T12:00:00Z.
 */
const NOW_PLACEHOLDER = /"\{now((?:[+-]\d+[smhdwy])*)\}"/g;

/** True when a body text holds a {@link NOW_PLACEHOLDER}. */
export function hasNowPlaceholder(text: string): boolean {
  return text.includes('"{now');
}

/** `text` with every {@link NOW_PLACEHOLDER} replaced by the integer it stands for at `nowSeconds` (Unix seconds). */
export function resolveNow(text: string, nowSeconds: number): string {
  return text.replace(NOW_PLACEHOLDER, (_match, offset: string) =>
    String(nowSeconds + (offset ? parseDuration(offset) / 1000 : 0)),
  );
}

/**
 * A value of scenario data with every placeholder string (see {@link NOW_PLACEHOLDER}) replaced by
 * its integer at `nowSeconds`: what the contract check of a scenario reads, so `"{now-2y}"` passes
 * where an integer is wanted. Other values are returned as they are.
 */
export function resolveNowIn(value: unknown, nowSeconds: number): unknown {
  if (typeof value === 'string')
    return /^\{now((?:[+-]\d+[smhdwy])*)\}$/.test(value)
      ? Number(resolveNow(JSON.stringify(value), nowSeconds))
      : value;
  if (Array.isArray(value)) return value.map((v) => resolveNowIn(v, nowSeconds));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolveNowIn(v, nowSeconds)]));
  return value;
}

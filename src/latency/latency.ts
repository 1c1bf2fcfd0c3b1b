/**
 * Recorded latency: how long the upstream took to answer an exchange, kept in its recording (or a
 * scenario stub) so that replay can answer as slowly as the real service did. Any runtime, no zod
 * (the schema is `latency-schema.ts`).
 * @module
 */
import type { Timings } from 'har-format';
import { MockvideoError } from '../errors.js';

/**
 * How long the upstream took, in **milliseconds** from the request sent: `headersMs` until the
 * answer's headers arrived (time to first byte), `lastByteMs` until its last body byte arrived
 * (`lastByteMs >= headersMs`). Stored as `response.latency` of a recording and as `latency` of a
 * scenario stub response.
 */
export interface RecordedLatency {
  headersMs: number;
  lastByteMs: number;
}

/** The longest recorded latency replayed, in milliseconds (as long as the longest `delay` fault). */
export const MAX_LATENCY_MS = 120_000;

/**
 * How recorded latencies are served: `recorded` (as recorded), `none` (at once), or a factor that
 * scales them (`0.5`: twice as fast; `2`: twice as slow).
 */
export type LatencySetting = 'recorded' | 'none' | number;

/**
 * Reads `--latency`: `recorded`, `none`, or a factor from 0 to 100 (`0.5`, `2`, also written `2x`).
 * @throws MockvideoError (`MV_USAGE`) naming the value and the forms.
 */
export function parseLatencySetting(text: string): LatencySetting {
  if (text === 'recorded' || text === 'none') return text;
  const factor = /^\d+(?:\.\d+)?x?$/.test(text) ? Number(text.replace(/x$/, '')) : NaN;
  if (!(factor >= 0 && factor <= 100))
    throw new MockvideoError(
      'MV_USAGE',
      `--latency ${text}: expected "recorded", "none" or a factor from 0 to 100 (e.g. 0.5 for twice as fast).`,
    );
  return factor;
}

/**
 * How long to wait before answering with a recording (or stub) of `latency`, in milliseconds: its
 * time to the last byte, scaled by `setting` (0 without a latency or with `none`), at most
 * {@link MAX_LATENCY_MS}. The whole answer (headers and body) goes then.
 */
export function latencyDelayMs(latency: RecordedLatency | undefined, setting: LatencySetting): number {
  if (!latency || setting === 'none') return 0;
  const factor = setting === 'recorded' ? 1 : setting;
  return Math.min(MAX_LATENCY_MS, Math.round(latency.lastByteMs * factor));
}

/** A latency measured with `process.hrtime.bigint()`-style nanosecond marks: sent, headers in, last byte in. Rounded to 0.1 ms. */
export function measuredLatency(sentNs: bigint, headersNs: bigint, lastByteNs: bigint): RecordedLatency {
  const ms = (ns: bigint) => Math.round(Number(ns - sentNs) / 1e5) / 10;
  return { headersMs: ms(headersNs), lastByteMs: ms(lastByteNs) };
}

/**
 * The latency of a HAR entry: headers after `blocked + dns + connect + send + wait` (`ssl` is part
 * of `connect`; `-1` counts 0), the last byte `receive` later. `undefined` when the entry has no
 * usable timings (all missing or zero). Capped at {@link MAX_LATENCY_MS}.
 */
export function harLatency(timings: Partial<Timings> | undefined): RecordedLatency | undefined {
  if (!timings) return undefined;
  const part = (value: number | undefined) =>
    typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0;
  const headersMs =
    part(timings.blocked) + part(timings.dns) + part(timings.connect) + part(timings.send) + part(timings.wait);
  const lastByteMs = headersMs + part(timings.receive);
  if (lastByteMs === 0) return undefined;
  const round = (ms: number) => Math.min(MAX_LATENCY_MS, Math.round(ms * 10) / 10);
  return { headersMs: round(headersMs), lastByteMs: round(lastByteMs) };
}

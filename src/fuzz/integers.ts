/**
 * The integers of the fuzz generator, sized for the client's platform: an integer field of the seed
 * draws its extremes at the bounds of the client's `int` (`integers` bits: 32 by default, 53 or 64),
 * a field in Unix seconds (`updated_at`) at those of a 64-bit `Long`. 2^63 - 1 is no JavaScript
 * number: a value of 2^63 stands for it and {@link exactInt64Text} writes it as 9223372036854775807
 * (both texts parse to the same number). Built on fast-check; any runtime.
 * @module
 */
import fc from 'fast-check';
import { isOn, type FuzzDraw, type IntegerWidth } from './options.js';

const INT32 = [2 ** 31 - 1, 2 ** 31 - 2, -(2 ** 31), -(2 ** 31) + 1, -1];
const INT53 = [...INT32, 2 ** 31, -(2 ** 31) - 1, 2 ** 32, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER];
/** 2^63 stands for 2^63 - 1 (see {@link exactInt64Text}); -2^63 is itself. */
const INT64 = [...INT53, 2 ** 53, -(2 ** 53), 2 ** 63, -(2 ** 63)];

/** The extremes of an integer field for each width of the client's `int` (class `integer-extreme`). */
const EXTREMES: Record<IntegerWidth, readonly number[]> = { 32: INT32, 53: INT53, 64: INT64 };

/** The extremes of a Unix time in seconds, a 64-bit `Long` (class `time-extreme`): the year 2038, 2^32, 2^53 - 1, the 64-bit bounds, -1. */
const TIME_EXTREMES = [2 ** 31 - 1, 2 ** 31, 2 ** 32, Number.MAX_SAFE_INTEGER, 2 ** 63, -(2 ** 63), -1];

/** Mostly `small`, sometimes 0 or one of `extremes` (when `name` is on). */
function drawn(small: fc.Arbitrary<number>, extremes: readonly number[], on: boolean): fc.Arbitrary<number> {
  return fc.oneof(
    { arbitrary: small, weight: 8 },
    { arbitrary: fc.constant(0), weight: 1 },
    ...(on ? [{ arbitrary: fc.constantFrom(...extremes), weight: 1 }] : []),
  );
}

/** An integer field (a client's `int`): mostly `small` (never -1 with `integer-extreme` off), sometimes 0 or extreme. */
export function intField(small: fc.Arbitrary<number>, draw: FuzzDraw): fc.Arbitrary<number> {
  const on = isOn(draw, 'integer-extreme');
  return drawn(on ? small : small.filter((n) => n !== -1), EXTREMES[draw.integers], on);
}

/** A field in Unix seconds (a client's `Long`): mostly `small`, sometimes 0 or extreme (class `time-extreme`). */
export const timeField = (small: fc.Arbitrary<number>, draw: FuzzDraw): fc.Arbitrary<number> =>
  drawn(small, TIME_EXTREMES, isOn(draw, 'time-extreme'));

/** A duration in seconds (an `int`): 0 to 2 hours (0 only with `duration-zero` on), sometimes extreme. */
export function durationField(draw: FuzzDraw): fc.Arbitrary<number> {
  const zero = isOn(draw, 'duration-zero');
  const on = isOn(draw, 'integer-extreme');
  const small = zero ? fc.nat(7200) : fc.integer({ min: 1, max: 7200 });
  return zero
    ? drawn(small, EXTREMES[draw.integers], on)
    : fc.oneof(
        { arbitrary: small, weight: 9 },
        ...(on ? [{ arbitrary: fc.constantFrom(...EXTREMES[draw.integers]), weight: 1 }] : []),
      );
}

const INT64_AS_NUMBER = /(?<=[:,[])(-?)9223372036854776000(?=[,\]}])/g;

/**
 * JSON text with ±2^63 written as the 64-bit bounds (`JSON.stringify(2 ** 63)` gives
 * 9223372036854776000, which no `Long` holds): 9223372036854775807 and -9223372036854775808.
 */
export function exactInt64Text(text: string): string {
  if (!text.includes('9223372036854776000')) return text;
  return text.replace(INT64_AS_NUMBER, (_, minus: string) => (minus ? '-9223372036854775808' : '9223372036854775807'));
}

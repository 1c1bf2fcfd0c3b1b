/**
 * What the fuzz arbitraries take, and the list sizes they draw. Any runtime.
 * @module
 */
import fc from 'fast-check';

/** Options of every fuzz arbitrary. */
export interface FuzzOptions {
  /**
   * Also vary what the seed only observed (default `false`: it holds): the diversion arrays each
   * their own items, `type` other than `video`, placement other than `localplayrecomm`, `ref` other
   * than `LOCALRECOMM`, both or neither of `apk_url`/`cp_link`, plugin `type` other than the two seen.
   */
  beyondObserved?: boolean;
}

/** The most items a drawn list has (class `items-many` starts at {@link MANY_ITEMS}). */
const MAX_ITEMS = 200;

/** Lists of at least this many items fall in the class `items-many`. */
export const MANY_ITEMS = 20;

/** A list of 0 (class `items-empty`), 1 (`items-one`), 2–5 or {@link MANY_ITEMS}–{@link MAX_ITEMS} (`items-many`) elements. */
export function listOf<T>(element: fc.Arbitrary<T>): fc.Arbitrary<T[]> {
  return fc.oneof(
    { arbitrary: fc.constant([] as T[]), weight: 8 },
    { arbitrary: fc.array(element, { minLength: 1, maxLength: 1 }), weight: 8 },
    { arbitrary: fc.array(element, { minLength: 2, maxLength: 5 }), weight: 23 },
    { arbitrary: fc.array(element, { minLength: MANY_ITEMS, maxLength: MAX_ITEMS }), weight: 1 },
  );
}

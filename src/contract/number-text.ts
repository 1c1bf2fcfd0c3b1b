/**
 * Numbers written as text, as the seed words them. The contract accepts every value of the kind the
 * seed names ("integer", "number as text", "string holding a number"), signed: a mock's checks must
 * never refuse traffic the contract permits. Strictness stays only where the seed is explicit
 * (64 lowercase hex, 32 hex, UUID, 8 digits, `1` or `0`, two upper-case letters).
 * @module
 */

/** An integer written in decimal, with an optional sign: `42`, `-4811`, `+7`. @see docs/contract.md#common-query-parameters. */
export const INTEGER_TEXT = /^[-+]?\d+$/;

/**
 * A number written in decimal, with an optional sign, fraction and exponent: `3`, `-4811`, `2.5`,
 * `.5`, `1e3`. @see docs/contract.md#runtime-settings, docs/contract.md#plugin-entry.
 */
export const NUMBER_TEXT = /^[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?$/;

/** The source of {@link NUMBER_TEXT} without anchors, to build patterns such as `<number>:<number>`. */
export const NUMBER_SOURCE = NUMBER_TEXT.source.slice(1, -1);

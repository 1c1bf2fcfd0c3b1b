/**
 * Serialises a JSON value the way the real service writes it: standard JSON text in which every
 * `&` (which can only occur inside strings) is written as the escape `\u0026`.
 *
 * The result parses back to the same value with `JSON.parse`. Key order is the value's own order.
 *
 * @example toServiceJson({ target: 'a?x=1&y=2' }) // '{"target":"a?x=1\\u0026y=2"}'
 * @see docs/contract.md#envelope (`&` written as `\u0026`)
 */
export function toServiceJson(value: unknown): string {
  return JSON.stringify(value).replace(/&/g, '\\u0026');
}

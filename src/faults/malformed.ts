/**
 * The body of a `malformed-json` fault: the operation's own answer cut off mid-way, as a connection
 * dropped during the transfer leaves it. Any runtime.
 * @module
 */

/** What a `malformed-json` fault sends when the answer it cuts has no text of its own. */
const EMPTY_ANSWER_CUT = '{"data":';

/**
 * `answerText` (an operation's JSON answer) cut after about half its characters, never inside a
 * UTF-16 surrogate pair, so that it stays valid text but does not parse as JSON: the client sees the
 * start of the answer it expects (its own fields), then the end of the input.
 *
 * @example malformedBody('{"data":{},"msg":"OK","result":1}') // '{"data":{},"msg"'
 */
export function malformedBody(answerText: string): string {
  if (answerText.length < 2) return EMPTY_ANSWER_CUT;
  let cut = Math.floor(answerText.length / 2);
  const code = answerText.charCodeAt(cut - 1);
  if (code >= 0xd800 && code <= 0xdbff) cut--;
  return answerText.slice(0, cut);
}

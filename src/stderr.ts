/**
 * The one printer of mockvideo's messages on stderr (Node): the CLI's fail handler, warnings, and
 * the lines of the Node host and the recorder. Each goes out behind the prefix (`prefixed`).
 * @module
 */
import { prefixed } from './errors.js';

/**
 * Prints `text` behind the prefix, as one line (a text of several lines keeps its own breaks), on
 * stderr, e.g. the prefix, then `Kept serving the last good recordings.`
 * @example say(errorText(error)) // the message of any error, prefixed once
 */
export function say(text: string): void {
  process.stderr.write(`${prefixed(text)}\n`);
}

/**
 * The content types an operation's answer may carry. The six operations answer JSON by contract
 * (@see docs/contract.md#envelope); a recording or scenario stub that names another type
 * (`text/html`, `image/svg+xml`, `application/xhtml+xml`, …) could make a browser that opens the
 * operation's URL run its body as a page of mockvideo's origin, so it is refused at load.
 * @module
 */

/** JSON (`application/json`, `application/<anything>+json`) or `text/plain` (what a failing gateway writes; never rendered as a page), with any parameters. */
const SERVABLE = /^(?:application\/(?:[\w.+-]+\+)?json|text\/plain)\s*(?:;.*)?$/i;

/**
 * Why the `content-type` among `headers` (any spelling of the name) must not be served for an
 * operation, or `undefined` when it may (or is absent: JSON is the default). One sentence naming the value.
 */
export function contentTypeProblem(headers: Readonly<Record<string, string>>): string | undefined {
  for (const [name, value] of Object.entries(headers)) {
    if (name.toLowerCase() === 'content-type' && !SERVABLE.test(value.trim())) {
      return `content-type "${value}" is not JSON: the operations answer JSON (application/json), and a browser would open another type as a page of mockvideo's origin. Set it to application/json or remove it`;
    }
  }
  return undefined;
}

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonSyntaxProblem } from './errors.js';

/** What `jsonSyntaxProblem` says of `text`, which must not be JSON. */
function problemOf(text: string): string {
  try {
    JSON.parse(text);
  } catch (error) {
    return jsonSyntaxProblem(error, text);
  }
  throw new Error(`${text} is JSON`);
}

describe('jsonSyntaxProblem', () => {
  it.each([
    ['made-up text', 'invalid JSON (line 1, column 1): unexpected character'],
    ['{"a": made}', 'invalid JSON (line 1, column 7): unexpected character'],
    ['{"a":1', "invalid JSON (line 1, column 7): Expected ',' or '}' after property value"],
    ['{"operations": {}}\nmade-up', 'invalid JSON (line 2, column 1): Unexpected non-whitespace character after JSON'],
    ['[1,]', 'invalid JSON (line 1, column 4): unexpected character'],
    ['', 'invalid JSON (line 1, column 1): Unexpected end of JSON input'],
    ['{\n  "a": [1, {"b": tru}]\n}', 'invalid JSON (line 2, column 18): unexpected character'],
    ['{"a":"x\\q"}', 'invalid JSON (line 1, column 8): Bad escaped character'],
  ])('%j: %s', (text, problem) => {
    expect(problemOf(text)).toBe(problem);
  });

  it('never quotes the text: a made-up secret anywhere in text that is no JSON stays out of the message', () => {
    const secret = 'made-up-secret-0451';
    fc.assert(
      fc.property(fc.string(), fc.string(), fc.constantFrom('', '{', '[', '{"a":', '"'), (before, after, start) => {
        const text = `${start}${before}${secret}${after}`;
        let json = true;
        try {
          JSON.parse(text);
        } catch {
          json = false;
        }
        fc.pre(!json);
        const problem = problemOf(text);
        expect(problem).not.toContain('made-up');
        expect(problem).not.toContain('\n');
      }),
    );
  });
});

import { distance } from 'fastest-levenshtein';

/**
 * The candidate closest to `typed` (edit distance, library `fastest-levenshtein`), when it is close
 * enough to be a typo: at most a third of the longer word's letters apart (at least 2, at most 3;
 * a swap of two letters, `prot` for `port`, is 2).
 * `undefined` when none is, or `typed` is a candidate itself.
 *
 * @example closestName('galery', ['default', 'gallery']) // 'gallery'
 */
export function closestName(typed: string, candidates: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    if (candidate === typed) return undefined;
    const d = distance(typed.toLowerCase(), candidate.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  if (best === undefined) return undefined;
  const limit = Math.min(3, Math.max(2, Math.floor(Math.max(typed.length, best.length) / 3)));
  return bestDistance <= limit ? best : undefined;
}

/**
 * yargs' "Unknown argument(s): a, b" with a suggestion for each name that is a typo of a known flag:
 * `Unknown argument: prot. Did you mean --port?`. Other messages come back unchanged.
 */
export function withFlagSuggestions(message: string, knownFlags: Iterable<string>): string {
  const m = /^Unknown arguments?: (.+)$/.exec(message);
  if (!m) return message;
  const known = [...knownFlags];
  // yargs names an unknown flag twice, as written and in camel case: `fallback-scenarios, fallbackScenarios`.
  const hints = new Set(
    m[1]!.split(', ').flatMap((name) => {
      const closest = closestName(name.replace(/^-+/, ''), known);
      return closest ? [`--${closest}`] : [];
    }),
  );
  return hints.size ? `${message}. Did you mean ${[...hints].join(', ')}?` : message;
}

import { closestName } from '../errors.js';

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

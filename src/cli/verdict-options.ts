/**
 * The CI verdict flags of `verify`, `serve` and `replay` (`--junit FILE`, `--fail-on WHAT`), declared
 * once, and what they do with the verdicts: the JUnit file, one line, the count of failed cases.
 * @module
 */
import type { Options } from 'yargs';
import { FAIL_ON, type FailOn } from '../verify/fail-on.js';
import type { VerdictSuite } from '../verify/verdicts.js';
import type { ArgsOf } from './options.js';
import { pathValue } from './options.js';

/** Parses `--fail-on` (comma-separated, repeatable). @throws Error naming the flag and the choices (yargs prints it as a usage error). */
function failOnList(value: unknown): FailOn[] {
  const words = [value]
    .flat()
    .flatMap((v) => String(v).split(','))
    .map((w) => w.trim())
    .filter(Boolean);
  for (const word of words)
    if (!(FAIL_ON as readonly string[]).includes(word))
      throw new Error(
        `--fail-on takes ${FAIL_ON.join(', ')} (comma-separated or repeated), got "${word}": e.g. --fail-on start-ups,unanswered`,
      );
  if (!words.length) throw new Error(`--fail-on needs one or more of ${FAIL_ON.join(', ')}`);
  return [...new Set(words as FailOn[])];
}

/** `--junit FILE` and `--fail-on`, for `yargs.options(...)`. */
export const verdictOptions = {
  junit: {
    type: 'string',
    ...pathValue,
    requiresArg: true,
    describe:
      'Write the verdicts as JUnit XML to FILE: a test suite per device, a test case per start-up and per operation (serve and replay: when they stop)',
  },
  'fail-on': {
    type: 'string',
    requiresArg: true,
    default: FAIL_ON.join(','),
    describe: `What fails (exit 1, a failed test case): ${FAIL_ON.join(', ')} (start-up rules, contract findings, requests no scenario or recording answered); comma-separated`,
    coerce: failOnList,
  },
} satisfies Record<string, Options>;

/** The parsed values of {@link verdictOptions}. */
export type VerdictArgs = ArgsOf<typeof verdictOptions>;

/**
 * Writes `--junit` (when given) from `suites` and prints one line naming the file, the cases and
 * the failed ones; returns how many cases failed by `--fail-on`. The XML builder loads only here.
 * @throws MockvideoError naming the file when it cannot be written.
 */
export async function reportVerdicts(
  suites: readonly VerdictSuite[],
  args: VerdictArgs,
  print: (line: string) => void = (line) => process.stdout.write(line),
): Promise<number> {
  const failOn = args.failOn;
  const { failedCases } = await import('../verify/verdicts.js');
  const failed = suites.flatMap((s) => failedCases([s], failOn).map((c) => `${s.name}: ${c.name}`));
  if (args.junit) {
    const { junitXml, writeJunitFile } = await import('./junit-xml.js');
    await writeJunitFile(args.junit, junitXml(suites, failOn));
    const cases = suites.reduce((n, s) => n + s.cases.length, 0);
    print(
      `JUnit report written to ${args.junit}: ${cases} test case${cases === 1 ? '' : 's'}, ${failed.length ? `${failed.length} failed (${failed.slice(0, 3).join('; ')}${failed.length > 3 ? '; …' : ''})` : 'none failed'}\n`,
    );
  }
  return failed.length;
}

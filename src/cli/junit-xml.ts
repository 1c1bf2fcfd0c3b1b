import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import reportBuilder, { type Builder } from 'junit-report-builder';
import { MockvideoError } from '../errors.js';
import { writeFileAtomically } from '../storage/write-file-atomically.js';
import type { VerdictCase, VerdictSuite } from '../verify/verdicts.js';
import type { FailOn } from '../verify/fail-on.js';

/**
 * The package's builder. Its types declare an ES default export; Node's import of its CommonJS main
 * gives `module.exports`, which is the builder itself.
 */
const junit = reportBuilder as unknown as Builder;

/** The text of a case's request ids and time, for its `<system-out>`. */
function context(c: VerdictCase): string {
  if (!c.ids.length) return '';
  return `requests ${c.ids.map((id) => `#${id}`).join(', ')} from ${c.start} (${c.seconds.toFixed(3)} s); see GET /__mockvideo/requests/ID`;
}

/**
 * The JUnit XML of CI verdicts (junit-report-builder: `<testsuites>` with a `<testsuite>` per
 * {@link VerdictSuite}, a `<testcase>` per case, classname `mockvideo.<suite name>`). A case fails
 * (`<failure message type>`, one line per problem in its text) when `failOn` counts one of its
 * problems; problems it does not count go to `<system-out>` as "not counted". A case that did not
 * run is `<skipped/>`. Times in seconds; characters XML cannot hold are left out.
 * @example junitXml(verdictSuites(entries), ['start-ups']) // '<?xml version="1.0" encoding="UTF-8"?>\n<testsuites …'
 * @see docs/ci.md
 */
export function junitXml(suites: readonly VerdictSuite[], failOn: readonly FailOn[]): string {
  const builder = junit.newBuilder().name('mockvideo');
  for (const suite of suites) {
    const node = builder.testSuite().name(suite.name);
    const first = suite.cases.find((c) => c.start !== null)?.start;
    if (first) node.timestamp(new Date(first));
    node.time(Math.round(suite.cases.reduce((sum, c) => sum + c.seconds * 1000, 0)) / 1000);
    node.property('fail-on', failOn.join(','));
    for (const c of suite.cases) {
      const test = node.testCase().className(`mockvideo.${suite.name}`).name(c.name).time(c.seconds);
      const counted = c.problems.filter((p) => failOn.includes(p.counts));
      const ignored = c.problems.filter((p) => !failOn.includes(p.counts));
      if (c.skipped) test.skipped();
      if (counted.length) {
        const rules = [...new Set(counted.map((p) => p.rule))];
        test
          .failure(
            counted.length === 1 ? counted[0]!.message : `${counted.length} problems: ${rules.join(', ')}`,
            rules[0],
          )
          .stacktrace(counted.map((p) => `✗ ${p.rule}: ${p.message}`).join('\n'));
      }
      const out = [
        c.skipped ?? context(c),
        ...ignored.map((p) => `not counted (--fail-on ${failOn.join(',') || 'nothing'}): ✗ ${p.rule}: ${p.message}`),
      ].filter(Boolean);
      if (out.length) test.standardOutput(out.join('\n'));
    }
  }
  return builder.build();
}

/**
 * Writes `xml` to `file` atomically, creating its folder.
 * @throws MockvideoError (`MV_USAGE`) naming the file and the cause when it cannot be written.
 */
export async function writeJunitFile(file: string, xml: string): Promise<void> {
  try {
    await mkdir(dirname(file), { recursive: true });
    await writeFileAtomically(file, `${xml}\n`);
  } catch (error) {
    throw new MockvideoError(
      'MV_USAGE',
      `Cannot write the JUnit report --junit ${file}: ${(error as Error).message}. Give a path in a folder you can write.`,
    );
  }
}

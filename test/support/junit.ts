import { readFileSync } from 'node:fs';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import type { OperationName } from '../../src/contract/index.js';
import { clientPathWith } from './sessions.js';

/** One `<testcase>` of a JUnit file, as fast-xml-parser reads it. */
export interface JunitCase {
  name: string;
  classname: string;
  time?: string;
  failure?: { message: string; type: string; '#text'?: string };
  skipped?: unknown;
  'system-out'?: string;
}

/** One `<testsuite>`. */
export interface JunitSuite {
  name: string;
  tests: string;
  failures: string;
  skipped: string;
  testcase: JunitCase[];
}

/**
 * Reads a JUnit XML file with a real XML parser (fast-xml-parser): throws when it is not
 * well-formed XML, else gives `<testsuites>`' counts and suites.
 */
export function readJunit(file: string): { tests: string; failures: string; testsuite: JunitSuite[] } {
  const xml = readFileSync(file, 'utf8');
  const valid = XMLValidator.validate(xml);
  if (valid !== true) throw new Error(`${file} is not well-formed XML: ${JSON.stringify(valid.err)}`);
  const parsed = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '',
    isArray: (name) => name === 'testsuite' || name === 'testcase',
  }).parse(xml) as { testsuites: { tests: string; failures: string; testsuite: JunitSuite[] } };
  return parsed.testsuites;
}

/** The failing test cases of a JUnit file, as `suite name: case name`. */
export const failingCases = (report: ReturnType<typeof readJunit>): string[] =>
  report.testsuite.flatMap((s) => s.testcase.filter((c) => c.failure !== undefined).map((c) => `${s.name}: ${c.name}`));

/** The six operations in the order the client calls them at a start-up. */
const START_UP: readonly OperationName[] = [
  'ad_config',
  'meta/cp',
  'meta/setting',
  'meta/plugin',
  'localplay/diversion',
  'localplay/recomm',
];

/**
 * A scripted client in place of a phone: one start-up of `device` (64 hex) against `url`, each
 * operation once, as the client sends it. `skip` leaves one operation out (an app that crashed
 * before calling it: the rule `start-up-calls-each-operation-once` breaks, no request has a
 * finding); `diversionFlag: false` leaves `is_from_gallery` out of the diversion call (a rule and a
 * contract finding).
 */
export async function scriptedStartUp(
  url: string,
  device: string,
  { diversionFlag = true, skip }: { diversionFlag?: boolean; skip?: OperationName } = {},
): Promise<number[]> {
  const statuses: number[] = [];
  for (const operation of START_UP.filter((o) => o !== skip)) {
    let path = clientPathWith(operation, { _sdevid: device });
    if (!diversionFlag) path = path.replace('is_from_gallery=true&', '');
    const response = await fetch(`${url}${path}`);
    await response.arrayBuffer();
    statuses.push(response.status);
  }
  return statuses;
}

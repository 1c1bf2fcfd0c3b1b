/**
 * Writes the generated tables of the documentation, so they list everything there is:
 * - between `<!-- scenarios:start -->` and `<!-- scenarios:end -->` in README.md and docs/*.md, every
 *   shipped scenario (from the catalog compiled at build time: name, what it extends, its
 *   description, its faults and how long the six operations take in a row when it delays them);
 * - between `<!-- errors:start -->` and `<!-- errors:end -->` in docs/errors.md, every error code of
 *   `ERROR_CODES` (src/error-codes.ts): its HTTP status, cause and how to solve it.
 *
 *   npx tsx scripts/docs-tables.ts
 *
 * test/docs/tables.test.ts (scenarios) and test/generated-files.test.ts (errors) fail when a file is
 * out of date. The command reference has its own generator (scripts/readme-reference.ts).
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { OPERATION_NAMES } from '../src/contract/core.js';
import { ERROR_CODES, type ErrorCodeInfo } from '../src/error-codes.js';
import type { Fault } from '../src/faults/fault.js';
import type { CompiledScenario } from '../src/scenarios/catalog.js';
import { compiledShippedCatalog } from '../src/scenarios/shipped-catalog.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const START = '<!-- scenarios:start -->';
const END = '<!-- scenarios:end -->';
/** The page of the error codes, relative to the repository root. */
export const ERRORS_FILE = 'docs/errors.md';
const ERRORS_START = '<!-- errors:start -->';
const ERRORS_END = '<!-- errors:end -->';

/** The Markdown files that may hold generated tables, relative to the repository root. */
export function documentationFiles(): string[] {
  return [
    'README.md',
    ...readdirSync(`${ROOT}docs`)
      .filter((f) => f.endsWith('.md'))
      .sort()
      .map((f) => `docs/${f}`),
  ];
}

const seconds = (ms: number) => `${Number((ms / 1000).toFixed(1))} s`;

/** One fault as a person reads it, e.g. `delay 1.5–3 s`, `status 503 for 30 % of requests`. */
function describeFault(fault: Fault): string {
  const what =
    fault.kind === 'delay'
      ? `delay ${Array.isArray(fault.ms) ? `${seconds(fault.ms[0]).replace(' s', '')}–${seconds(fault.ms[1])}` : seconds(fault.ms)}`
      : fault.kind === 'status'
        ? `status ${fault.status}`
        : fault.kind;
  return fault.rate !== undefined && fault.rate < 1
    ? `${what} for ${Math.round(fault.rate * 100)} % of requests`
    : what;
}

/** The scenario's faults, operations with the same fault grouped: `all six: delay 1.5–3 s`. */
function faultsOf(scenario: CompiledScenario): string {
  const groups = new Map<string, string[]>();
  for (const op of OPERATION_NAMES) {
    const fault = scenario.faults[op];
    if (fault) groups.set(describeFault(fault), [...(groups.get(describeFault(fault)) ?? []), op]);
  }
  if (groups.size === 0) return '';
  return [...groups]
    .map(
      ([fault, ops]) =>
        `${ops.length === OPERATION_NAMES.length ? 'all six' : ops.map((op) => `\`${op}\``).join(', ')}: ${fault}`,
    )
    .join('; ');
}

/** How long the six operations take one after another when the scenario delays them (min–max), else ''. */
function sixInARow(scenario: CompiledScenario): string {
  let min = 0;
  let max = 0;
  for (const op of OPERATION_NAMES) {
    const fault = scenario.faults[op];
    if (fault?.kind !== 'delay') continue;
    const [low, high] = Array.isArray(fault.ms) ? fault.ms : [fault.ms, fault.ms];
    min += low;
    max += high;
  }
  if (max === 0) return '';
  return min === max ? seconds(max) : `${seconds(min).replace(' s', '')}–${seconds(max)}`;
}

/** The table of every shipped scenario (without the markers). */
export function scenarioTable(): string {
  const rows = compiledShippedCatalog()
    .list()
    .map(
      (s) =>
        `| \`${s.name}\` | ${s.ancestry[0] ? `\`${s.ancestry[0]}\`` : ''} | ${s.description.replace(/\|/g, '\\|')} | ${faultsOf(s)} | ${sixInARow(s)} |`,
    );
  return [
    '',
    '_Generated from the shipped scenarios by `scripts/docs-tables.ts`; a test keeps it in step._',
    '',
    '| Scenario | Extends | What it answers | Faults | The six operations in a row |',
    '|---|---|---|---|---|',
    ...rows,
    '',
    "A scenario whose six operations take longer than your test runner's default timeout (5 s in vitest and Jest) needs a timeout of its own in those tests.",
    '',
  ].join('\n');
}

/** `text` with what stands between each `start` and the next `end` marker replaced by `table`; unchanged without markers. */
function between(text: string, start: string, end: string, table: string): string {
  let out = text;
  let from = 0;
  for (;;) {
    const at = out.indexOf(start, from);
    if (at < 0) return out;
    const to = out.indexOf(end, at);
    if (to < 0) throw new Error(`${start} without ${end}`);
    out = `${out.slice(0, at + start.length)}${table}${out.slice(to)}`;
    from = out.indexOf(end, at) + end.length;
  }
}

/** `text` with every marked scenario table replaced; unchanged when it has no markers. */
export function withTables(text: string): string {
  return between(text, START, END, scenarioTable());
}

/** A Markdown table cell: `|` escaped, on one line. */
const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');

/** The table of every error code of `ERROR_CODES`, in its order (without the markers). */
function errorTable(): string {
  const rows = Object.entries(ERROR_CODES).map(([code, info]: [string, ErrorCodeInfo]) => {
    const status = info.status === undefined ? 'thrown' : String(info.status);
    return `| \`${code}\` | ${status} | ${cell(info.cause)} | ${cell(info.solve)} |`;
  });
  return [
    '',
    '_Generated from `ERROR_CODES` (src/error-codes.ts) by `scripts/docs-tables.ts`; a test keeps it in step._',
    '',
    '| Code | Status | Cause | How to solve |',
    '|---|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}

/** `text` with its marked error table replaced; unchanged when it has no markers. */
export function withErrorTable(text: string): string {
  return between(text, ERRORS_START, ERRORS_END, errorTable());
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const file of documentationFiles()) {
    const text = readFileSync(`${ROOT}${file}`, 'utf8');
    const updated = file === ERRORS_FILE ? withErrorTable(text) : withTables(text);
    if (updated !== text) {
      writeFileSync(`${ROOT}${file}`, updated);
      process.stdout.write(`${file}: ${file === ERRORS_FILE ? 'error' : 'scenario'} table updated\n`);
    }
  }
}

/**
 * Writes the generated tables of the documentation, so they list everything there is: between
 * `<!-- scenarios:start -->` and `<!-- scenarios:end -->` in README.md and docs/*.md, every shipped
 * scenario (from the catalog compiled at build time: name, what it extends, its description, its
 * faults and how long the six operations take in a row when it delays them).
 *
 *   npx tsx scripts/docs-tables.ts
 *
 * test/docs/tables.test.ts fails when a file is out of date. The command reference has its own
 * generator (scripts/readme-reference.ts).
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { OPERATION_NAMES } from '../src/contract/core.js';
import type { Fault } from '../src/faults/fault.js';
import type { CompiledScenario } from '../src/scenarios/catalog.js';
import { compiledShippedCatalog } from '../src/scenarios/shipped-catalog.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const START = '<!-- scenarios:start -->';
const END = '<!-- scenarios:end -->';

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

/** `text` with every marked scenario table replaced; unchanged when it has no markers. */
export function withTables(text: string): string {
  let out = text;
  let from = 0;
  for (;;) {
    const start = out.indexOf(START, from);
    if (start < 0) return out;
    const end = out.indexOf(END, start);
    if (end < 0) throw new Error(`${START} without ${END}`);
    out = `${out.slice(0, start + START.length)}${scenarioTable()}${out.slice(end)}`;
    from = out.indexOf(END, start) + END.length;
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const file of documentationFiles()) {
    const text = readFileSync(`${ROOT}${file}`, 'utf8');
    const updated = withTables(text);
    if (updated !== text) {
      writeFileSync(`${ROOT}${file}`, updated);
      process.stdout.write(`${file}: scenario table updated\n`);
    }
  }
}

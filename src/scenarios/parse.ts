import type { z } from 'zod';
import { nestingProblem, sizeProblem } from './limits.js';
import { OPERATION_NAMES, isOperationName, type OperationName } from '../contract/core.js';
import { resolveNowIn } from '../clock/clock.js';
import { didYouMean, formatJsonPath, jsonSyntaxProblem, type ScenarioProblem } from '../errors.js';
import { messageWithHint } from './key-hints.js';
import { scenarioFaultsSchema, scenarioHeaderSchema, type ScenarioFaults, type Stub } from './format.js';
import { dataSchemaOf, stubSchemas } from './stub-schema.js';
import { OBJECT_DATA_OPERATIONS } from './inherit-data.js';

/** A problem of data checked after it was completed from a parent: its path inside `data`, and the rule. */
type DataIssue = Pick<z.core.$ZodIssue, 'path' | 'message'>;

/** A scenario as parsed from one file, before `extends` is resolved. */
export interface ParsedScenario {
  /** The scenario name (the file name without `.json`). */
  name: string;
  /** Where it came from, for messages: a file path or `shipped:<name>`. */
  source: string;
  description: string;
  extends?: string;
  /** Each given operation's stubs, tried in order. */
  operations: Partial<Record<OperationName, Stub[]>>;
  /** The operations written as a list of stubs (their JSON paths carry an index). */
  listed: ReadonlySet<OperationName>;
  /** The fault overlay, by operation or `*`. */
  faults: ScenarioFaults;
  /**
   * The operations whose object data may be partial (a scenario with `extends`; see
   * `OBJECT_DATA_OPERATIONS`): the catalog completes it from the parent, then checks it with {@link checkData}.
   */
  inheritsData?: ReadonlySet<OperationName>;
  /** Checks completed `data` of an operation against the contract (set with {@link inheritsData}). */
  checkData?: (operation: OperationName, data: unknown) => DataIssue[];
  /** The scenario setting `"state"`, when given (inherited through `extends`). */
  state?: 'client' | 'global';
}

/** The outcome of parsing: the scenario, or every problem found (never both, never a throw). */
export type ParseResult =
  { ok: true; scenario: ParsedScenario } | { ok: false; problems: ScenarioProblem[]; extends?: string };

/** `value.extends` when it is a string: a scenario that failed to parse still names its parent, so an unknown one is reported in the same run. */
function extendsOf(value: unknown): { extends?: string } {
  const name = typeof value === 'object' && value !== null ? (value as { extends?: unknown }).extends : undefined;
  return typeof name === 'string' ? { extends: name } : {};
}

/** Checks complete `data` of `operation` against the contract. */
function checkData(operation: OperationName, data: unknown): DataIssue[] {
  return dataSchemaOf(operation).safeParse(data).error?.issues ?? [];
}

/** zod's issues of a value checked with `schema`, as problems at `prefix` (an unrecognised key gets its "did you mean"). */
function issuesToProblems(
  source: string,
  prefix: PropertyKey[],
  issues: readonly z.core.$ZodIssue[],
  schema: z.core.$ZodType,
): ScenarioProblem[] {
  return issues.map((issue) => ({
    source,
    path: formatJsonPath([...prefix, ...issue.path]),
    message: messageWithHint(schema, issue),
  }));
}

/**
 * Parses a scenario from a JSON value already read (files are read at the Node edge). Checks the
 * top level, then every stub of every operation against the contract; collects every problem.
 *
 * @param name the scenario name; `source` names the file for messages.
 * @example parseScenario('quiet', { operations: { ad_config: { data: {} } } }, 'scenarios/quiet.json')
 * @see docs/contract.md#operations (operation names and payloads).
 */
export function parseScenario(name: string, value: unknown, source: string): ParseResult {
  const tooDeep = nestingProblem(value, source);
  if (tooDeep) return { ok: false, problems: [tooDeep] };
  const header = scenarioHeaderSchema.safeParse(value);
  if (!header.success)
    return {
      ok: false,
      problems: issuesToProblems(source, [], header.error.issues, scenarioHeaderSchema),
      ...extendsOf(value),
    };
  // A scenario that extends another may give object data in part (completed and checked by the catalog).
  const partial = header.data.extends !== undefined;
  const problems: ScenarioProblem[] = [];
  const operations: ParsedScenario['operations'] = {};
  const listed = new Set<OperationName>();
  for (const [op, entry] of Object.entries(header.data.operations)) {
    const list = Array.isArray(entry) ? entry : [entry];
    const problem = (message: string) => problems.push({ source, path: formatJsonPath(['operations', op]), message });
    if (!isOperationName(op)) {
      problem(
        `unknown operation "${op}"; the operations are ${OPERATION_NAMES.join(', ')}.${didYouMean(op, OPERATION_NAMES)}`,
      );
      continue;
    }
    if (list.length === 0) {
      problem('an operation needs at least one stub');
      continue;
    }
    if (Array.isArray(entry)) listed.add(op);
    const schemas = stubSchemas(op, partial);
    const stubs: Stub[] = [];
    list.forEach((stub, index) => {
      const at: PropertyKey[] = Array.isArray(entry) ? ['operations', op, index] : ['operations', op];
      const isSequence = typeof stub === 'object' && stub !== null && 'sequence' in stub;
      // A time relative to the clock ("{now-2y}") is checked as the integer it becomes.
      const schema = isSequence ? schemas.sequence : schemas.single;
      const result = schema.safeParse(resolveNowIn(stub, Math.floor(Date.now() / 1000)));
      if (result.success) stubs.push(stub as Stub);
      else problems.push(...issuesToProblems(source, at, result.error.issues, schema));
    });
    operations[op] = stubs;
  }
  let faults: ScenarioFaults = {};
  if (header.data.faults !== undefined) {
    const result = scenarioFaultsSchema.safeParse(header.data.faults);
    if (result.success) faults = result.data as ScenarioFaults;
    else problems.push(...issuesToProblems(source, ['faults'], result.error.issues, scenarioFaultsSchema));
  }
  if (problems.length) return { ok: false, problems, ...extendsOf(value) };
  const scenario: ParsedScenario = {
    name,
    source,
    description: header.data.description ?? '',
    operations,
    listed,
    faults,
  };
  if (header.data.extends !== undefined) {
    scenario.extends = header.data.extends;
    const inherits = OBJECT_DATA_OPERATIONS.filter((op) => operations[op] !== undefined);
    if (inherits.length) Object.assign(scenario, { inheritsData: new Set(inherits), checkData });
  }
  if (header.data.state !== undefined) scenario.state = header.data.state;
  return { ok: true, scenario };
}

/**
 * Parses a scenario from JSON text. Invalid JSON gives one problem naming the line and column.
 * @see parseScenario
 */
export function parseScenarioText(name: string, text: string, source: string): ParseResult {
  const tooLarge = sizeProblem(text, source);
  if (tooLarge) return { ok: false, problems: [tooLarge] };
  const json = text.replace(/^\uFEFF/, '');
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (error) {
    return { ok: false, problems: [{ source, path: '', message: jsonSyntaxProblem(error, json) }] };
  }
  return parseScenario(name, value, source);
}

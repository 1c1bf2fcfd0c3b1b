/** The prefix of every message mockvideo prints or throws. */
export const PREFIX = '[mockvideo]';

/**
 * Error codes, each with its likely cause. `MV_SCENARIO_INVALID`: a scenario file is not valid JSON
 * or breaks the contract; `MV_SCENARIO_UNKNOWN`: a scenario name that is not loaded;
 * `MV_USAGE`: a bad flag or argument; `MV_RECORDING_INVALID`: a recording file is corrupt or breaks
 * the recording format.
 */
export type ErrorCode = 'MV_SCENARIO_INVALID' | 'MV_SCENARIO_UNKNOWN' | 'MV_USAGE' | 'MV_RECORDING_INVALID';

/**
 * The one error class mockvideo throws on bad input. `message` says what failed, why and what to do
 * next, behind the `[mockvideo]` prefix; `code` is stable for tools.
 */
export class MockvideoError extends Error {
  readonly code: ErrorCode;
  constructor(code: ErrorCode, message: string) {
    super(`${PREFIX} ${message}`);
    this.name = 'MockvideoError';
    this.code = code;
  }
}

/**
 * One problem in a scenario file: the file (or scenario name when it came from memory), the JSON
 * path inside it (e.g. `operations["meta/cp"][0].data[2].id`, `''` for the whole file) and the rule.
 */
export interface ScenarioProblem {
  source: string;
  path: string;
  message: string;
}

/** Formats a problem as one line: `scenarios/x.json at operations.ad_config.data: expected an object`. */
export function formatProblem(problem: ScenarioProblem): string {
  return `${problem.source}${problem.path ? ` at ${problem.path}` : ''}: ${problem.message}`;
}

/**
 * Thrown when one or more scenario files are invalid; `problems` lists every one found.
 * @see formatProblem for the line format.
 */
export class ScenarioError extends MockvideoError {
  readonly problems: readonly ScenarioProblem[];
  constructor(problems: readonly ScenarioProblem[]) {
    super(
      'MV_SCENARIO_INVALID',
      `Invalid scenario${problems.length === 1 ? '' : 's'}:\n${problems.map((p) => `  ${formatProblem(p)}`).join('\n')}\nFix the file or run "mockvideo validate" to list every problem.`,
    );
    this.name = 'ScenarioError';
    this.problems = problems;
  }
}

/** Thrown for a scenario name that is not loaded; the message lists the known names. */
export class UnknownScenarioError extends MockvideoError {
  readonly scenario: string;
  readonly known: readonly string[];
  constructor(scenario: string, known: readonly string[]) {
    super('MV_SCENARIO_UNKNOWN', `Unknown scenario "${scenario}". Known scenarios: ${known.join(', ')}.`);
    this.name = 'UnknownScenarioError';
    this.scenario = scenario;
    this.known = known;
  }
}

/**
 * Formats a JSON path (as zod reports it: keys and indexes) the way a person reads it:
 * `operations["meta/cp"][0].data`.
 */
export function formatJsonPath(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else if (typeof key === 'string' && /^[A-Za-z_$][\w$]*$/.test(key)) out += out ? `.${key}` : key;
    else out += `[${JSON.stringify(String(key))}]`;
  }
  return out;
}

/**
 * Thrown when recording files are corrupt or hand-broken: replay refuses to start. Takes every problem
 * found as the reader reports it (`{ file, path, message }`: file relative to the recording folder,
 * JSON path, rule); `problems` lists them as `{ source, path, message }`.
 */
export class RecordingError extends MockvideoError {
  readonly problems: readonly ScenarioProblem[];
  constructor(dir: string, found: readonly { file: string; path: string; message: string }[]) {
    const problems = found.map(({ file, path, message }) => ({ source: file, path, message }));
    super(
      'MV_RECORDING_INVALID',
      `Invalid recording${problems.length === 1 ? '' : 's'} in ${dir}:\n${problems.map((p) => `  ${formatProblem(p)}`).join('\n')}\nFix or delete the file${problems.length === 1 ? '' : 's'} (or re-record), then run "mockvideo validate ${dir}".`,
    );
    this.name = 'RecordingError';
    this.problems = problems;
  }
}

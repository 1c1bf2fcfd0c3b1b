import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MockvideoError, type ScenarioProblem } from '../errors.js';
import { SCENARIO_NAME, parseScenarioText, type ParsedScenario } from '../scenarios/index.js';

/** The folder of the scenarios shipped in the package (`<package>/scenarios`). */
export const SHIPPED_SCENARIOS_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../scenarios');

/** What reading scenario files gave: the parsed scenarios and every problem (files that failed are left out). */
export interface ScenarioFiles {
  scenarios: ParsedScenario[];
  problems: ScenarioProblem[];
}

function displayPath(file: string): string {
  const rel = relative(process.cwd(), file);
  return rel && !rel.startsWith('..') ? rel : file;
}

/** True for a scenario file name: `<name>.json`, not a JSON Schema. */
export function isScenarioFileName(file: string): boolean {
  return file.endsWith('.json') && !file.endsWith('.schema.json');
}

/**
 * Reads scenario files (each `<name>.json`, the name from the file name) and parses them. Never
 * throws for a bad file: unreadable files, invalid JSON, bad names and contract violations all come
 * back as problems naming the file (relative to the working folder) and the JSON path.
 */
export function readScenarioFiles(files: readonly string[]): ScenarioFiles {
  const scenarios: ParsedScenario[] = [];
  const problems: ScenarioProblem[] = [];
  for (const file of files) {
    const source = displayPath(file);
    const name = basename(file, '.json');
    if (!SCENARIO_NAME.test(name)) {
      problems.push({ source, path: '', message: `"${name}" is not a valid scenario name: use lowercase letters, digits and dashes (the file name is the name)` });
      continue;
    }
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      problems.push({ source, path: '', message: `cannot read the file: ${(error as Error).message}` });
      continue;
    }
    const result = parseScenarioText(name, text, source);
    if (result.ok) scenarios.push(result.scenario);
    else problems.push(...result.problems);
  }
  return { scenarios, problems };
}

/**
 * The scenario files in a folder (not recursive), or the files themselves for file paths.
 * @throws MockvideoError (`MV_USAGE`) when a path does not exist.
 */
export function scenarioFilesAt(paths: readonly string[]): string[] {
  const files: string[] = [];
  for (const path of paths) {
    let stat;
    try {
      stat = statSync(path);
    } catch {
      throw new MockvideoError('MV_USAGE', `No such file or folder: ${path}`);
    }
    if (stat.isDirectory()) files.push(...readdirSync(path).filter(isScenarioFileName).sort().map((f) => join(path, f)));
    else files.push(path);
  }
  return files;
}

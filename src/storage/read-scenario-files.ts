import { basename, dirname, relative } from 'node:path';
import type { ScenarioProblem } from '../errors.js';
import type { BrokenScenario } from '../scenarios/catalog.js';
import { SCENARIO_NAME } from '../scenarios/format.js';
import { parseScenarioText, type ParsedScenario } from '../scenarios/parse.js';
import { readFolderFileSync } from './folder-file.js';

/** What reading scenario files gave: the parsed scenarios and every problem (files that failed are left out). */
export interface ScenarioFiles {
  scenarios: ParsedScenario[];
  problems: ScenarioProblem[];
  /** The files that failed to parse, for `checkScenarios` (which then reports an unknown `extends` of theirs too). */
  broken: BrokenScenario[];
}

function displayPath(file: string): string {
  const rel = relative(process.cwd(), file);
  return rel && !rel.startsWith('..') ? rel : file;
}

/**
 * Reads scenario files (each `<name>.json`, the name from the file name) and parses them (with the
 * scenario format's zod schemas, which this module loads). Never throws for a bad file: unreadable
 * files, files that are no regular file (a FIFO is refused, never waited on) or a symbolic link
 * leaving their folder, invalid JSON, bad names and contract violations all come back as problems
 * naming the file (relative to the working folder) and the JSON path, never quoting its text.
 */
export function readScenarioFiles(files: readonly string[]): ScenarioFiles {
  const scenarios: ParsedScenario[] = [];
  const problems: ScenarioProblem[] = [];
  const broken: BrokenScenario[] = [];
  for (const file of files) {
    const source = displayPath(file);
    const name = basename(file, '.json');
    if (!SCENARIO_NAME.test(name)) {
      problems.push({
        source,
        path: '',
        message: `"${name}" is not a valid scenario name: use lowercase letters, digits and dashes (the file name is the name)`,
      });
      continue;
    }
    let text: string;
    try {
      const read = readFolderFileSync(dirname(file), file, 'scenario folder');
      if (read.problem !== undefined) {
        problems.push({ source, path: '', message: read.problem });
        continue;
      }
      text = read.text;
    } catch (error) {
      problems.push({ source, path: '', message: `cannot read the file: ${(error as Error).message}` });
      continue;
    }
    const result = parseScenarioText(name, text, source);
    if (result.ok) scenarios.push(result.scenario);
    else {
      problems.push(...result.problems);
      broken.push({ name, source, ...(result.extends !== undefined ? { extends: result.extends } : {}) });
    }
  }
  return { scenarios, problems, broken };
}

import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MockvideoError } from '../errors.js';
import { SHIPPED_SCENARIO_FILES } from '../scenarios/shipped.generated.js';
import { readFolderFileSync } from './folder-file.js';

/** The folder of the scenarios shipped in the package (`<package>/scenarios`). */
export const SHIPPED_SCENARIOS_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../scenarios');

/** True for a scenario file name: `<name>.json`, not a JSON Schema. */
export function isScenarioFileName(file: string): boolean {
  return file.endsWith('.json') && !file.endsWith('.schema.json');
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
    if (stat.isDirectory())
      files.push(
        ...readdirSync(path)
          .filter(isScenarioFileName)
          .sort()
          .map((f) => join(path, f)),
      );
    else files.push(path);
  }
  return files;
}

/** True when `file` holds exactly the embedded copy of the shipped scenario of its name (so parsing it again would give the same scenario). */
function sameAsShipped(file: string): boolean {
  const shipped = SHIPPED_SCENARIO_FILES[basename(file, '.json')];
  if (shipped === undefined) return false;
  try {
    const { text } = readFolderFileSync(dirname(file), file, 'scenario folder');
    if (text === undefined) return false;
    const value = JSON.parse(text) as Record<string, unknown>;
    delete value.$schema;
    return JSON.stringify(value) === JSON.stringify(shipped);
  } catch {
    return false;
  }
}

/**
 * The scenario files a catalog of `dir` has to parse (see `loadScenarioCatalog`): the scenario files
 * of `dir`, which defaults to the package's own `scenarios/` folder (when it exists), less the files
 * there that are unchanged copies of the shipped ones. Empty when the catalog is the shipped one
 * (compiled at build time). Loads no scenario parser.
 *
 * @throws MockvideoError (`MV_USAGE`) when `dir` was given and does not exist.
 */
export function scenarioFilesToParse(dir?: string): string[] {
  const folder = dir ?? (existsSync(SHIPPED_SCENARIOS_DIR) ? SHIPPED_SCENARIOS_DIR : undefined);
  const paths = folder ? scenarioFilesAt([folder]) : [];
  return folder !== undefined && resolve(folder) === SHIPPED_SCENARIOS_DIR
    ? paths.filter((file) => !sameAsShipped(file))
    : paths;
}

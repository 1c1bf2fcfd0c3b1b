import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { MockvideoError } from '../errors.js';
import { SHIPPED_SCENARIOS_DIR } from '../storage/scenario-files.js';

/** A scenario file `new-scenario` or `scenario from-recordings` is about to write: `DIR/NAME.json`. */
export interface NewScenarioFile {
  name: string;
  dir: string;
  file: string;
  /** The file as messages show it: relative to the working folder. */
  shown: string;
  /** The `$schema` of the file: the shipped scenario schema, relative to `dir`. */
  $schema: string;
}

/**
 * Where scenario `name` goes in `scenariosDir` (made absolute), checked before anything is read.
 * @param nameFlag how the messages name the flag that gave `name`: `--name ` or `''` (a positional).
 * @throws MockvideoError (`MV_USAGE`) for a name that is not a scenario name, or a file that exists without `force`.
 */
export async function newScenarioFile(
  scenariosDir: string,
  name: string,
  force: boolean,
  nameFlag: '--name ' | '' = '',
): Promise<NewScenarioFile> {
  const { SCENARIO_NAME } = await import('../scenarios/format.js');
  if (!SCENARIO_NAME.test(name))
    throw new MockvideoError(
      'MV_USAGE',
      `${nameFlag}"${name}" is not a valid scenario name: use lowercase letters, digits and dashes, e.g. "qa-session-1".`,
    );
  const dir = resolve(scenariosDir);
  const file = join(dir, `${name}.json`);
  const shown = relative(process.cwd(), file) || file;
  if (existsSync(file) && !force)
    throw new MockvideoError(
      'MV_USAGE',
      `${shown} exists already. Pick another ${nameFlag ? '--name' : 'name'} or pass --force to overwrite it.`,
    );
  const $schema = relative(dir, join(SHIPPED_SCENARIOS_DIR, 'scenario.schema.json')).split('\\').join('/');
  return { name, dir, file, shown, $schema };
}

/** Writes `content` (its `$schema` first) to `target`, creating its folder; returns the lines that say how to check and serve it. */
export function writeScenarioFile(target: NewScenarioFile, content: object): string {
  mkdirSync(target.dir, { recursive: true });
  writeFileSync(target.file, `${JSON.stringify({ $schema: target.$schema, ...content }, null, 2)}\n`);
  const dirShown = relative(process.cwd(), target.dir) || '.';
  return `Check it:  mockvideo validate ${target.shown}\nServe it:  mockvideo serve --scenarios-dir ${dirShown} --scenario ${target.name}\n`;
}

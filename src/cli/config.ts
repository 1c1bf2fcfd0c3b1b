import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Argv, CommandModule } from 'yargs';
import { IDENTITY_PARAMETERS, SECRET_PARAMETERS } from '../contract/core.js';
import { MockvideoError } from '../errors.js';

/** The names a config file may have, in the order they are looked for in each folder. */
const CONFIG_FILE_NAMES = ['mockvideo.config.json', 'mockvideo.config.mjs'] as const;

/** The prefix of environment variables that set flags: `MOCKVIDEO_PORT=9000` is `--port 9000`. */
export const ENV_PREFIX = 'MOCKVIDEO_';

/** What the default export of `yargs` is: makes a yargs instance that parses `argv`. */
export type YargsFactory = (argv?: readonly string[], cwd?: string) => Argv;

/**
 * Settings only the command line may give, each with why: a config file is found from the working
 * folder upward (a cloned repository can bring one), and an environment variable is as easy to
 * leave behind, so neither may send the real token elsewhere or store identifiers raw.
 */
const COMMAND_LINE_ONLY: Readonly<Record<string, string>> = {
  upstream: 'it decides where the real token and identifiers are sent',
  'insecure-upstream': 'it stops checking who receives the real token',
  'keep-identifiers': 'it writes real device identifiers into the recordings',
};

/** The protected parameter lists a config file or environment variable may only add to (the defaults always stay). */
const PROTECTED_LISTS = { secret: SECRET_PARAMETERS, identity: IDENTITY_PARAMETERS } as const;

/**
 * The settings of a config file or of environment variables, made safe: `secret` and `identity`
 * lists are added to the defaults instead of replacing them (a name the file makes `secret` leaves
 * `identity`: it is protected either way). Flags on the command line still replace the defaults.
 *
 * @example protectedSettings({ identity: ['_uid'] }) // { identity: ['_sdevid', '_anoyid', '_cam', '_diordna', '_app_coop_md5', '_uid'] }
 */
export function protectedSettings(settings: Record<string, unknown>): Record<string, unknown> {
  if (!Array.isArray(settings.secret) && !Array.isArray(settings.identity)) return settings;
  const secret = [...new Set([...PROTECTED_LISTS.secret, ...((settings.secret as string[] | undefined) ?? [])])];
  const identity = [
    ...new Set([...PROTECTED_LISTS.identity, ...((settings.identity as string[] | undefined) ?? [])]),
  ].filter((name) => !secret.includes(name));
  return { ...settings, secret, identity };
}

/**
 * Refuses a setting of {@link COMMAND_LINE_ONLY} (other than `false`) given by `source` (a config file, or `environment
 * variable MOCKVIDEO_UPSTREAM`).
 * @throws MockvideoError (`MV_USAGE`) naming the source, the setting, why, and the flag to use.
 */
function refuseCommandLineOnly(source: string, name: string, value: unknown): void {
  const why = COMMAND_LINE_ONLY[name];
  // `false` asks for the safe side: allowed anywhere.
  if (why === undefined || value === false) return;
  throw new MockvideoError(
    'MV_USAGE',
    `${source}: "${name}" is taken from the command line only (${why}). Remove it there and pass --${name}${name === 'upstream' ? ' URL' : ''} on the command line.`,
  );
}

/** Where a setting's value came from, highest precedence first. */
type SettingSource = 'flag' | 'env' | 'file' | 'default';

/** One setting of one command: its value and where it came from. */
export interface ResolvedSetting {
  name: string;
  value: unknown;
  source: SettingSource;
}

/** What a command accepts: its option names (kebab-case), their defaults and kinds. */
export interface CommandOptions {
  keys: Set<string>;
  defaults: Record<string, unknown>;
  booleans: Set<string>;
  arrays: Set<string>;
  /** Other names of an option (`s` for `scenario`), by option name; absent when it has none. */
  aliases?: Record<string, string[]>;
}

/** Reads a command module's options by building it on a throwaway yargs instance made by `yargs`. */
export function commandOptions(command: CommandModule<object, never>, yargs: YargsFactory): CommandOptions {
  const y = yargs([]);
  const built = (typeof command.builder === 'function' ? command.builder(y as never) : y) ?? y;
  const options = (
    built as unknown as {
      getOptions(): {
        key: Record<string, boolean>;
        default: Record<string, unknown>;
        boolean: string[];
        array: string[];
        alias: Record<string, string[]>;
      };
    }
  ).getOptions();
  const aliasNames = new Set(Object.values(options.alias ?? {}).flat());
  const keys = new Set(
    Object.keys(options.key).filter(
      (k) => k !== 'help' && k !== 'version' && !aliasNames.has(k) && (k.length > 1 || !/^[a-z]$/.test(k)),
    ),
  );
  return {
    keys,
    defaults: options.default,
    booleans: new Set(options.boolean),
    arrays: new Set(options.array),
    aliases: options.alias,
  };
}

/**
 * The names of the flags written on a command line, as written (kebab-case, without a `no-`
 * prefix; each letter of `-qv`): what tells a flag's value from a default, a config file or an
 * environment variable that yargs has filled in. Stops at `--`.
 *
 * @example givenFlagNames(['serve', '--port=0', '--no-watch', '-s', 'gallery']) // Set { 'port', 'watch', 's' }
 */
export function givenFlagNames(argv: readonly string[]): Set<string> {
  const names = new Set<string>();
  for (const arg of argv) {
    if (arg === '--') break;
    if (arg.startsWith('--')) names.add(kebab(arg.slice(2).split('=')[0]!).replace(/^no-/, ''));
    else if (/^-[A-Za-z]/.test(arg)) for (const letter of arg.slice(1).split('=')[0]!) names.add(letter);
  }
  return names;
}

/** `scenariosDir` and `scenarios_dir` → `scenarios-dir`, as the flags are written. */
export function kebab(name: string): string {
  return name.replace(/_/g, '-').replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

/** The config file found by walking up from `cwd`, or `undefined`. */
export function findConfigFile(cwd: string): string | undefined {
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    for (const name of CONFIG_FILE_NAMES) if (existsSync(join(dir, name))) return join(dir, name);
    if (dirname(dir) === dir) return undefined;
  }
}

/**
 * Loads a config file: JSON, or an ES module whose default export is the settings object. Keys are
 * flag names (`port`, `scenarios-dir` or `scenariosDir`).
 * @throws MockvideoError (`MV_USAGE`) naming the file when it cannot be read or is not an object.
 */
export async function loadConfigFile(file: string): Promise<Record<string, unknown>> {
  let value: unknown;
  try {
    value =
      file.endsWith('.mjs') || file.endsWith('.js')
        ? ((await import(pathToFileURL(file).href)) as { default: unknown }).default
        : JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new MockvideoError(
      'MV_USAGE',
      `Cannot read the config file ${file}: ${(error as Error).message}. Fix it, or pass another with --config FILE.`,
    );
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new MockvideoError(
      'MV_USAGE',
      `The config file ${file} must hold an object of settings, e.g. {"port": 8787, "scenario": "gallery"}.`,
    );
  }
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [kebab(k), v]));
}

/**
 * Checks a config file's settings once, at start: every key must be a flag of some command, not one
 * of {@link COMMAND_LINE_ONLY}, and its value of the flag's kind (boolean, list of strings, or a
 * single value).
 * @throws MockvideoError (`MV_USAGE`) naming the file, the setting and what is allowed.
 */
export function checkConfig(
  file: string,
  settings: Record<string, unknown>,
  commands: readonly CommandOptions[],
): void {
  const all = new Set(commands.flatMap((c) => [...c.keys]));
  for (const [name, value] of Object.entries(settings)) {
    refuseCommandLineOnly(file, name, value);
    if (!all.has(name)) {
      throw new MockvideoError(
        'MV_USAGE',
        `${file}: unknown setting "${name}". Settings are the flags of the commands: ${[...all].sort().join(', ')}.`,
      );
    }
    const isBoolean = commands.some((c) => c.booleans.has(name));
    const isArray = commands.some((c) => c.arrays.has(name));
    const ok = isBoolean
      ? typeof value === 'boolean'
      : isArray
        ? Array.isArray(value) && value.every((v) => typeof v === 'string')
        : ['string', 'number'].includes(typeof value);
    if (!ok) {
      throw new MockvideoError(
        'MV_USAGE',
        `${file}: setting "${name}" must be ${isBoolean ? 'true or false' : isArray ? 'a list of strings' : 'a string or a number'}, got ${JSON.stringify(value)}.`,
      );
    }
  }
}

/**
 * The settings environment variables give for a command's options: `MOCKVIDEO_JOURNAL_SIZE` →
 * `journal-size`; `secret` and `identity` add to the defaults ({@link protectedSettings}).
 * @throws MockvideoError (`MV_USAGE`) for a variable of a {@link COMMAND_LINE_ONLY} setting.
 */
export function envSettings(env: NodeJS.ProcessEnv, options: CommandOptions): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of options.keys) {
    const variable = `${ENV_PREFIX}${key.toUpperCase().replace(/-/g, '_')}`;
    const value = env[variable];
    if (value === undefined) continue;
    out[key] = options.booleans.has(key)
      ? !['0', 'false', 'no', ''].includes(value.toLowerCase())
      : options.arrays.has(key)
        ? value.split(',').filter(Boolean)
        : value;
    refuseCommandLineOnly(`The environment variable ${variable}`, key, out[key]);
  }
  return protectedSettings(out);
}

/**
 * Every setting of a command with its value and source: flag > environment > file > default.
 * `flags` are the settings given on the command line (kebab-case names).
 */
export function resolveSettings(
  options: CommandOptions,
  layers: { flags: Record<string, unknown>; env: Record<string, unknown>; file: Record<string, unknown> },
): ResolvedSetting[] {
  return [...options.keys].sort().map((name) => {
    if (name in layers.flags) return { name, value: layers.flags[name], source: 'flag' as const };
    if (name in layers.env) return { name, value: layers.env[name], source: 'env' as const };
    if (name in layers.file) return { name, value: layers.file[name], source: 'file' as const };
    return { name, value: options.defaults[name], source: 'default' as const };
  });
}

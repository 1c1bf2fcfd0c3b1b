import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import yargs from 'yargs';
import { IDENTITY_PARAMETERS, SECRET_PARAMETERS } from '../contract/core.js';
import { MockvideoError, errorText } from '../errors.js';
import { REDACTED } from '../normalise/policy.js';
import { COMMAND_NAMES, loadCommands, type AnyCommand, type CommandName } from './command-list.js';
import { outputOptions } from './output.js';

/** The names a config file may have, in the order they are looked for in each folder. */
const CONFIG_FILE_NAMES = ['mockvideo.config.json', 'mockvideo.config.mjs'] as const;

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

/**
 * Settings a config file may not give, each with why: a config file is found from the working
 * folder upward, so a cloned repository could open the journal and admin control to the network, or
 * make `record` forward requests for other host names (DNS rebinding). The command line and the
 * environment (both set by the person running mockvideo) may.
 */
const NOT_FROM_A_FILE: Readonly<Record<string, { why: string; value: string }>> = {
  host: { why: 'it decides who on the network reaches the journal and admin control', value: 'HOST' },
  'admin-token': { why: 'it lets other hosts steer mockvideo', value: 'TOKEN' },
  'allow-host': { why: 'it decides which host names record forwards requests for', value: 'NAME' },
};

/** Settings whose values are secret: `mockvideo config` shows them as {@link REDACTED}, with their source. */
const SECRET_SETTINGS: ReadonlySet<string> = new Set(['admin-token', 'secret-value']);

/** A secret setting's value as shown: each value {@link REDACTED} (a list keeps its length), nothing given stays so. */
function redactedValue(value: unknown): unknown {
  if (value === undefined || value === null || value === '') return value;
  return Array.isArray(value) ? value.map(() => REDACTED) : REDACTED;
}

/** The environment variable of a setting: `journal-size` → `MOCKVIDEO_JOURNAL_SIZE`. */
const variableOf = (name: string) => `MOCKVIDEO_${name.toUpperCase().replace(/-/g, '_')}`;

/**
 * Refuses a setting of {@link NOT_FROM_A_FILE} in the config file `file`.
 * @throws MockvideoError (`MV_USAGE`) naming the file, the setting, why, and where to give it instead.
 */
function refuseFromFile(file: string, settings: Record<string, unknown>): void {
  for (const name of Object.keys(settings)) {
    const rule = NOT_FROM_A_FILE[name];
    if (rule === undefined) continue;
    throw new MockvideoError(
      'MV_USAGE',
      `${file}: "${name}" is taken from the command line or the environment only (${rule.why}). Remove it there and pass --${name} ${rule.value} on the command line or as ${variableOf(name)}.`,
    );
  }
}

/**
 * The settings of a config file or of environment variables, made safe: `secret` and `identity`
 * lists are added to the defaults instead of replacing them (a name the file makes `secret` leaves
 * `identity`: it is protected either way). Flags on the command line still replace the defaults.
 * Refuses a setting of {@link COMMAND_LINE_ONLY} (other than `false`, the safe side).
 *
 * @param source what gave them, for the message: a config file, or `environment variable MOCKVIDEO_UPSTREAM`
 * @throws MockvideoError (`MV_USAGE`) naming the source, the setting, why, and the flag to use.
 * @example protectedSettings('f.json', { identity: ['_uid'] }) // { identity: ['_sdevid', '_anoyid', '_cam', '_diordna', '_app_coop_md5', '_uid'] }
 */
function protectedSettings(source: (name: string) => string, settings: Record<string, unknown>) {
  for (const [name, value] of Object.entries(settings)) {
    const why = COMMAND_LINE_ONLY[name];
    if (why === undefined || value === false) continue;
    throw new MockvideoError(
      'MV_USAGE',
      `${source(name)}: "${name}" is taken from the command line only (${why}). Remove it there and pass --${name}${name === 'upstream' ? ' URL' : ''} on the command line.`,
    );
  }
  if (!Array.isArray(settings.secret) && !Array.isArray(settings.identity)) return settings;
  const secret = [...new Set([...SECRET_PARAMETERS, ...((settings.secret as string[] | undefined) ?? [])])];
  const identity = [
    ...new Set([...IDENTITY_PARAMETERS, ...((settings.identity as string[] | undefined) ?? [])]),
  ].filter((name) => !secret.includes(name));
  return { ...settings, secret, identity };
}

/** One setting of one command: its value and where it came from (highest precedence first: flag, env, file, default). */
interface ResolvedSetting {
  name: string;
  value: unknown;
  source: 'flag' | 'env' | 'file' | 'default';
}

/**
 * What a command accepts, the global output flags included: its option names (kebab-case) in
 * `keys`, and yargs' own tables of their defaults, kinds (`boolean`, `array`) and other names
 * (`alias`: `s` for `scenario`).
 */
interface CommandOptions {
  keys: Set<string>;
  default: Record<string, unknown>;
  boolean: string[];
  array: string[];
  alias: Record<string, string[]>;
}

/** Reads a command module's options by building it on a throwaway yargs instance. */
function commandOptions(command: AnyCommand): CommandOptions {
  const y = yargs([]).options(outputOptions);
  const built = (typeof command.builder === 'function' ? command.builder(y as never) : y) ?? y;
  const o = (built as unknown as { getOptions(): Omit<CommandOptions, 'keys'> & { key: object } }).getOptions();
  const aliasNames = new Set(Object.values(o.alias).flat());
  const keys = Object.keys(o.key).filter(
    (k) => k !== 'help' && k !== 'version' && !aliasNames.has(k) && (k.length > 1 || !/^[a-z]$/.test(k)),
  );
  return { ...o, keys: new Set(keys) };
}

/** `scenariosDir` and `scenarios_dir` → `scenarios-dir`, as the flags are written. */
const kebab = (name: string) => name.replace(/_/g, '-').replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/**
 * The names of the flags written on a command line, as written (kebab-case, without a `no-`
 * prefix; each letter of `-qv`): what tells a flag's value from a default, a config file or an
 * environment variable that yargs has filled in. Stops at `--`.
 *
 * @example givenFlagNames(['serve', '--port=0', '--no-watch', '-s', 'gallery']) // Set { 'port', 'watch', 's' }
 */
function givenFlagNames(argv: readonly string[]): Set<string> {
  const names = new Set<string>();
  for (const arg of argv) {
    if (arg === '--') break;
    if (arg.startsWith('--')) names.add(kebab(arg.slice(2).split('=')[0]!).replace(/^no-/, ''));
    else if (/^-[A-Za-z]/.test(arg)) for (const letter of arg.slice(1).split('=')[0]!) names.add(letter);
  }
  return names;
}

/** The config file: `--config FILE` as given on the command line, else the one found by walking up from `cwd`, else `undefined`. */
function configFile(argv: readonly string[], cwd: string): string | undefined {
  const at = argv.findIndex((a) => a === '--config' || a.startsWith('--config='));
  if (at >= 0) return argv[at]!.includes('=') ? argv[at]!.slice('--config='.length) : argv[at + 1];
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    for (const name of CONFIG_FILE_NAMES) if (existsSync(join(dir, name))) return join(dir, name);
    if (dirname(dir) === dir) return undefined;
  }
}

/**
 * Loads a config file, JSON or an ES module whose default export is the settings object, and checks
 * it once, at start: every key (a flag name, `scenarios-dir` or `scenariosDir`) must be a flag of
 * some command of `commands`, and its value of the flag's kind (boolean, list of strings, or a
 * single value); see {@link protectedSettings}.
 * @throws MockvideoError (`MV_USAGE`) naming the file, the setting and what is allowed.
 */
async function loadConfigFile(file: string, commands: readonly CommandOptions[]): Promise<Record<string, unknown>> {
  let value: unknown;
  try {
    value = /\.m?js$/.test(file)
      ? ((await import(pathToFileURL(file).href)) as { default: unknown }).default
      : JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new MockvideoError(
      'MV_USAGE',
      `Cannot read the config file ${file}: ${errorText(error)}. Fix it, or pass another with --config FILE.`,
    );
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new MockvideoError(
      'MV_USAGE',
      `The config file ${file} must hold an object of settings, e.g. {"port": 8787, "scenario": "gallery"}.`,
    );
  }
  const settings = Object.fromEntries(Object.entries(value).map(([k, v]) => [kebab(k), v]));
  const all = new Set(commands.flatMap((c) => [...c.keys]));
  for (const [name, value] of Object.entries(settings)) {
    if (!all.has(name)) {
      throw new MockvideoError(
        'MV_USAGE',
        `${file}: unknown setting "${name}". Settings are the flags of the commands: ${[...all].sort().join(', ')}.`,
      );
    }
    const [expected, ok] = commands.some((c) => c.boolean.includes(name))
      ? ['true or false', typeof value === 'boolean']
      : commands.some((c) => c.array.includes(name))
        ? ['a list of strings', Array.isArray(value) && value.every((v) => typeof v === 'string')]
        : ['a string or a number', ['string', 'number'].includes(typeof value)];
    if (!ok)
      throw new MockvideoError(
        'MV_USAGE',
        `${file}: setting "${name}" must be ${expected}, got ${JSON.stringify(value)}.`,
      );
  }
  refuseFromFile(file, settings);
  return protectedSettings(() => file, settings);
}

/**
 * The settings environment variables give for a command's options: `MOCKVIDEO_JOURNAL_SIZE` →
 * `journal-size`, `a,b` for a list; see {@link protectedSettings}.
 */
function envSettings(env: NodeJS.ProcessEnv, options: CommandOptions): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of options.keys) {
    const value = env[variableOf(key)];
    if (value === undefined) continue;
    out[key] = options.boolean.includes(key)
      ? !['0', 'false', 'no', ''].includes(value.toLowerCase())
      : options.array.includes(key)
        ? value.split(',').filter(Boolean)
        : value;
  }
  return protectedSettings((name) => `The environment variable ${variableOf(name)}`, out);
}

/** The command modules a start loads, the config file, and the settings below the flags. */
export interface Settings {
  /** The modules of the commands named on the command line; every one with a config file or `config`. */
  commands: Map<CommandName, AnyCommand>;
  /** The config file read, if any. */
  file: string | undefined;
  /** The flags `command` takes, output flags included (those alone for a command not loaded). */
  flagsOf(command: string): string[];
  /** What the config file and then the `MOCKVIDEO_*` variables over it set for `command`: yargs' config layer. */
  layersOf(command: string): Record<string, unknown>;
  /**
   * Every setting of `command` with its value and source; `flags` are those yargs parsed (strict
   * off). The values of secret settings (`admin-token`, `secret-value`) are {@link REDACTED}.
   */
  resolve(command: string, flags: Record<string, unknown>): ResolvedSetting[];
}

/**
 * Reads what the flags stand on: the config file (`--config FILE`, else `mockvideo.config.json` or
 * `.mjs` from `cwd` up) and the `MOCKVIDEO_*` variables of `env` (`MOCKVIDEO_PORT=9000` is `--port
 * 9000`). Precedence: flag > environment > file > default.
 * @throws MockvideoError (`MV_USAGE`) for a bad config file, or a setting only the command line may give.
 */
export async function readSettings(argv: readonly string[], cwd: string, env: NodeJS.ProcessEnv): Promise<Settings> {
  const file = configFile(argv, cwd);
  // yargs runs the command named first: a start loads the modules of the commands on its command line.
  const commands = await loadCommands(
    file || argv.includes('config') ? COMMAND_NAMES : COMMAND_NAMES.filter((name) => argv.includes(name)),
  );
  const options = new Map<string, CommandOptions>([...commands].map(([name, c]) => [name, commandOptions(c)]));
  const fromFile = file ? await loadConfigFile(file, [...options.values()]) : {};
  const layers = (known: CommandOptions) => ({
    env: envSettings(env, known),
    file: Object.fromEntries(Object.entries(fromFile).filter(([k]) => known.keys.has(k))),
  });
  return {
    commands,
    file,
    flagsOf: (command) => [...(options.get(command)?.keys ?? Object.keys(outputOptions))],
    layersOf: (command) => {
      const known = options.get(command);
      return known ? { ...layers(known).file, ...layers(known).env } : {};
    },
    resolve: (command, flags) => {
      const known = options.get(command)!;
      const { env: fromEnv, file: fromFile } = layers(known);
      // Only what the command line says is a flag: yargs fills in defaults and the config layers too.
      const written = givenFlagNames(argv);
      const parsed = new Map(Object.entries(flags).map(([k, v]) => [kebab(k), v]));
      const given = (name: string) =>
        [name, ...(known.alias[name] ?? []).map(kebab)].find((n) => written.has(n) && parsed.has(n));
      const setting = (name: string): ResolvedSetting => {
        const as = given(name);
        if (as !== undefined) return { name, value: parsed.get(as), source: 'flag' };
        if (name in fromEnv) return { name, value: fromEnv[name], source: 'env' };
        if (name in fromFile) return { name, value: fromFile[name], source: 'file' };
        return { name, value: known.default[name], source: 'default' };
      };
      return [...known.keys].sort().map((name) => {
        const resolved = setting(name);
        return SECRET_SETTINGS.has(name) ? { ...resolved, value: redactedValue(resolved.value) } : resolved;
      });
    },
  };
}

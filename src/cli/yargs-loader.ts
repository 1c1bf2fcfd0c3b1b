import { notStrictEqual, strictEqual } from 'node:assert';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, extname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { inspect } from 'node:util';
import type { Argv } from 'yargs';

/** What the default export of `yargs` is: makes a yargs instance that parses `argv`. */
export type YargsFactory = (argv?: readonly string[], cwd?: string) => Argv;

/** yargs, loaded by {@link loadYargs}, and its `hideBin` (from `yargs/helpers`). */
export interface LoadedYargs {
  yargs: YargsFactory;
  /** `process.argv` without the Node binary and the script: what yargs parses. */
  hideBin: (argv: string[]) => string[];
}

/** What only rendering help text needs: cliui and string-width (whose import makes an `Intl.Segmenter`: ~35 ms). */
interface HelpRendering {
  cliui: (options: unknown) => unknown;
  stringWidth: (text: string) => number;
}

/**
 * Where yargs' own modules are as one file (a URL relative to this module), when this module runs
 * in the CLI bundle: scripts/bundle-cli.mjs defines it. Undeclared elsewhere (dist/cli, tests).
 */
declare const MOCKVIDEO_YARGS_FILE: string | undefined;

const load = (file: string): Promise<Record<string, unknown>> => import(pathToFileURL(file).href) as Promise<Record<string, unknown>>;
const defaultOf = <T>(module: Record<string, unknown>): T => module.default as T;

let loaded: Promise<LoadedYargs> | undefined;
let helpRendering: HelpRendering | undefined;
let loadHelpRendering: (() => Promise<HelpRendering>) | undefined;

/**
 * yargs as `import yargs from 'yargs'` gives it, but built on a copy of its ES module platform shim
 * (`yargs/lib/platform-shims/esm.mjs`) in which cliui and string-width, used only to render help
 * text, are imported when `renderHelp` says help may be rendered (`--help`, `-h`), not at every start:
 * importing them took about 35 ms of each `serve` start. mockvideo's own `.fail()` prints usage errors
 * without help text, and {@link skipHelpCache} stops yargs from rendering the running command's help.
 * Should yargs render help anyway, they are `require()`d then (Node 20.19+ loads ES modules so).
 *
 * If yargs' files are not where this version of yargs keeps them, the plain `yargs` export is used.
 * The shim must have the members yargs calls, so package.json takes yargs patch releases only
 * (`~18.2.0`); a newer yargs is taken by hand, once `src/cli/yargs-loader.test.ts` passes with it.
 * Loaded once; later calls only add the help rendering when asked for.
 */
export async function loadYargs(options: { renderHelp: boolean }): Promise<LoadedYargs> {
  loaded ??= loadLight().catch(async () => ({ yargs: defaultOf<YargsFactory>(await import('yargs')), hideBin: (await import('yargs/helpers')).hideBin }));
  const result = await loaded;
  if (options.renderHelp && !helpRendering && loadHelpRendering) helpRendering = await loadHelpRendering();
  return result;
}

/** What {@link loadLight} takes from yargs' files: its factory, process-argv, and what its shim imports. */
interface YargsModules {
  YargsFactory: (shim: unknown) => YargsFactory;
  getProcessArgvBin: () => string;
  hideBin: (argv: string[]) => string[];
  Parser: unknown;
  escalade: (dir: string, callback: (dir: string, names: string[]) => string | false | undefined) => string | undefined;
  getCallerFile: (position?: number) => string;
  y18n: (options: { directory: string; updateFiles: boolean }) => unknown;
}

/**
 * yargs' modules: in the CLI bundle, its one file beside the bundle (scripts/bundle-cli.mjs builds
 * it from these same files); elsewhere yargs' own files, `fromShim` resolving as yargs' shim does.
 */
async function yargsModules(root: string, fromShim: NodeRequire): Promise<YargsModules> {
  if (typeof MOCKVIDEO_YARGS_FILE === 'string') return (await import(new URL(MOCKVIDEO_YARGS_FILE, import.meta.url).href)) as YargsModules;
  const [factory, processArgv, parser] = await Promise.all([load(join(root, 'build', 'lib', 'yargs-factory.js')), load(join(root, 'build', 'lib', 'utils', 'process-argv.js')), load(fromShim.resolve('yargs-parser'))]);
  return {
    YargsFactory: factory.YargsFactory as YargsModules['YargsFactory'],
    getProcessArgvBin: processArgv.getProcessArgvBin as YargsModules['getProcessArgvBin'],
    hideBin: processArgv.hideBin as YargsModules['hideBin'],
    Parser: parser.default,
    escalade: fromShim('escalade/sync') as YargsModules['escalade'],
    getCallerFile: fromShim('get-caller-file') as YargsModules['getCallerFile'],
    y18n: fromShim('y18n') as YargsModules['y18n'],
  };
}

/** Builds yargs from its factory and a platform shim like its own, with help rendering deferred. */
async function loadLight(): Promise<LoadedYargs> {
  const require = createRequire(import.meta.url);
  const root = dirname(require.resolve('yargs/package.json'));
  // The shim's own location: yargs resolves its dependencies, locales and main file from there.
  const shimFile = join(root, 'lib', 'platform-shims', 'esm.mjs');
  const fromShim = createRequire(shimFile);
  const { YargsFactory, getProcessArgvBin, hideBin, Parser, escalade, getCallerFile, y18n } = await yargsModules(root, fromShim);
  if ([YargsFactory, getProcessArgvBin, hideBin, Parser, escalade, getCallerFile, y18n].some((member) => typeof member !== 'function')) throw new Error('unexpected yargs layout');
  loadHelpRendering = async () => {
    const [cliui, stringWidth] = await Promise.all([load(fromShim.resolve('cliui')), load(fromShim.resolve('string-width'))]);
    return { cliui: defaultOf(cliui), stringWidth: defaultOf(stringWidth) };
  };
  // require() of an ES module gives its namespace, or its 'module.exports' export when it has one (cliui does).
  const required = <T>(name: string): T => {
    const module = fromShim(name) as T | Record<string, unknown>;
    return typeof module === 'function' ? module : defaultOf<T>(module as Record<string, unknown>);
  };
  const rendering = (): HelpRendering => (helpRendering ??= { cliui: required('cliui'), stringWidth: required('string-width') });
  const mainFilename = shimFile.substring(0, shimFile.lastIndexOf('node_modules'));
  // The same members as yargs' esm.mjs, in its order.
  const shim = {
    assert: { notStrictEqual, strictEqual },
    cliui: (opts: unknown) => rendering().cliui(opts),
    findUp: escalade,
    getEnv: (key: string) => process.env[key],
    inspect,
    getProcessArgvBin,
    mainFilename: mainFilename || process.cwd(),
    Parser,
    path: { basename, dirname, extname, relative, resolve, join },
    process: {
      argv: () => process.argv,
      cwd: process.cwd,
      emitWarning: (warning: string, type: string) => process.emitWarning(warning, type),
      execPath: () => process.execPath,
      exit: (code: number) => process.exit(code),
      nextTick: process.nextTick,
      stdColumns: typeof process.stdout.columns !== 'undefined' ? process.stdout.columns : null,
    },
    readFileSync,
    readdirSync,
    require: fromShim,
    getCallerFile: () => {
      const callerFile = getCallerFile(3);
      return /^file:\/\//.test(callerFile) ? fileURLToPath(callerFile) : callerFile;
    },
    stringWidth: (text: string) => rendering().stringWidth(text),
    y18n: y18n({ directory: resolve(shimFile, '../../../locales'), updateFiles: false }),
  };
  return { yargs: YargsFactory(shim), hideBin };
}

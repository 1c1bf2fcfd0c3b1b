import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DEFAULT_POLICY, formatRecording, matchKey, type Recording } from '../../src/normalise/index.js';
import { keyHash } from '../../src/storage/recording-names.js';
import { startCli } from '../support/cli.js';

const MAIN = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));

/**
 * Packages only some commands or requests need: loading them at start-up slows every `serve` (see
 * docs/performance.md). Express, msw and http-middleware come with the Express host, on the first
 * request the routes leave (admin API, dashboard); the image, ZIP and MD5 libraries with the first
 * download; pino with `--log json`; cli-progress with a progress bar; zod with
 * scenario files of the user's own, `--fault` flags, the admin API and the commands that validate.
 */
const ON_FIRST_USE = [
  'zod',
  'undici',
  'selfsigned',
  'fast-png',
  'jpeg-js',
  'fflate',
  '@noble/hashes',
  'content-disposition',
  'chokidar',
  'express',
  'msw',
  '@mswjs/http-middleware',
  'pino',
  'cli-progress',
];

/**
 * Modules of mockvideo's own that only other commands need (record, replay, import, export,
 * validate, verify load them when they run): `serve` must not pay for them at every start.
 */
const OTHER_COMMANDS_ONLY = [
  'server/modes/record.js',
  'server/modes/replay.js',
  'storage/read-recordings.js',
  'storage/recording-writer.js',
  'storage/claim-recording-dir.js',
  'replay/check.js',
  'verify/verify.js',
  'record/proxy.js',
  'replay/replayer.js',
  // The other commands' modules themselves: a start loads those of the commands on its command line.
  'cli/commands/record.js',
  'cli/commands/replay.js',
  'cli/commands/validate.js',
  'cli/commands/verify.js',
  'cli/commands/import.js',
  'cli/commands/export.js',
  'cli/commands/new-scenario.js',
  'cli/commands/config.js',
];

/** The resolve hook of {@link filesLoadedByServe}: appends every resolved URL to the file named by MOCKVIDEO_TEST_LOADED. */
const LOG_HOOKS = `import { appendFileSync } from 'node:fs'; export async function resolve(s, c, next) { const r = await next(s, c); appendFileSync(process.env.MOCKVIDEO_TEST_LOADED, r.url + '\\n'); return r; }`;

/**
 * The ES modules (file URLs, and `node:` built-ins) `mockvideo serve ARGS` loaded by the time it has
 * answered two `meta/setting` requests and run a moment longer (the scenario watcher loads after
 * listening): a resolve hook, registered with `--import`, logs each one.
 */
async function filesLoadedByServe(args: string[]): Promise<string[]> {
  return filesLoadedByCommand(['serve', ...args], args.some((a) => a.startsWith('--fault')) ? 500 : 200);
}

/** As {@link filesLoadedByServe}, for any command line `argv` that listens (`--port 0` is added); `status`: what `meta/setting` answers. */
async function filesLoadedByCommand(argv: string[], status: number): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'mockvideo-lazy-serve-'));
  const log = join(dir, 'resolved.txt');
  const register = join(dir, 'register.mjs');
  writeFileSync(log, '');
  writeFileSync(
    register,
    `import { register } from 'node:module';\nregister('data:text/javascript,' + encodeURIComponent(${JSON.stringify(LOG_HOOKS)}));\n`,
  );
  try {
    const env = {
      MOCKVIDEO_TEST_LOADED: log,
      NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import ${pathToFileURL(register).href}`.trim(),
    };
    const serve = await startCli([...argv, '--port', '0'], { env });
    try {
      for (let i = 0; i < 2; i++) expect((await fetch(`${serve.url}/api/g1/meta/setting`)).status).toBe(status);
      await new Promise((resolve) => setTimeout(resolve, 500));
    } finally {
      await serve.stop();
    }
    return readFileSync(log, 'utf8').split('\n').filter(Boolean);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The files (paths and file URLs) a fresh Node process loads when it imports `entry`: ES modules through a resolve hook, CommonJS ones from require.cache. */
function filesLoadedBy(entry: string): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'mockvideo-lazy-'));
  const log = join(dir, 'resolved.txt');
  try {
    const hooks = `import { appendFileSync } from 'node:fs'; export async function resolve(s, c, next) { const r = await next(s, c); appendFileSync(${JSON.stringify(log)}, r.url + '\\n'); return r; }`;
    const script = [
      `import { createRequire, register } from 'node:module';`,
      `register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(hooks)}));`,
      `await import(${JSON.stringify(entry)});`,
      `process.stdout.write(JSON.stringify(Object.keys(createRequire(import.meta.url).cache)));`,
    ].join('\n');
    const required = JSON.parse(
      execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }),
    ) as string[];
    return [...required, ...readFileSync(log, 'utf8').split('\n')];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

let loadedByMain: string[] | undefined;
/** The files loading the CLI loads (measured once). */
const mainFiles = () => (loadedByMain ??= filesLoadedBy(MAIN));

/** The modules of dist/ in each file of the command line's bundle (scripts/bundle-cli.mjs writes it). */
const BUNDLED = JSON.parse(
  readFileSync(new URL('../../dist/cli-bundle/modules.json', import.meta.url), 'utf8'),
) as Record<string, string[]>;

/** The packages among `files`; a file of the CLI's bundle counts as the modules it holds. */
function packagesOf(files: readonly string[]): Set<string> {
  const modules = files.flatMap((file) => {
    const bundled = /\/dist\/cli-bundle\/(.+\.js)$/.exec(file)?.[1];
    return bundled === undefined ? [file] : (BUNDLED[bundled] ?? []);
  });
  return new Set(
    modules
      .map((file) => /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(file)?.[1])
      .filter((name): name is string => name !== undefined),
  );
}

/** mockvideo's own modules among `files`, as paths below dist/ (`cli/main.js`); a file of the CLI's bundle counts as the modules it holds. */
function ownModulesOf(files: readonly string[]): Set<string> {
  const own = files.filter((file) => !file.includes('/node_modules/'));
  return new Set(
    own.flatMap((file) => {
      const bundled = /\/dist\/cli-bundle\/(.+\.js)$/.exec(file)?.[1];
      if (bundled !== undefined) return (BUNDLED[bundled] ?? []).filter((name) => !name.startsWith('../'));
      const name = /\/dist\/(.+\.js)$/.exec(file)?.[1];
      return name === undefined ? [] : [name];
    }),
  );
}

describe('start-up', () => {
  it(`loading the CLI does not load ${ON_FIRST_USE.join(', ')}`, () => {
    const packages = packagesOf(mainFiles());
    expect(ON_FIRST_USE.filter((name) => packages.has(name))).toEqual([]);
    // The check itself sees both kinds of module: ES modules (ours; yargs loads when main() runs, see the
    // serve tests below), and CommonJS ones (picocolors, which every start's output loads).
    expect([ownModulesOf(mainFiles()).has('cli/main.js'), packages.has('picocolors')]).toEqual([true, true]);
  });

  it(`loading the CLI, and a plain serve, do not load ${OTHER_COMMANDS_ONLY.join(', ')} (the other commands load them when they run)`, async () => {
    expect(OTHER_COMMANDS_ONLY.filter((name) => ownModulesOf(mainFiles()).has(name))).toEqual([]);
    const modules = ownModulesOf(await filesLoadedByServe([]));
    // The bundle's files are read as the modules they hold: serve's own are there.
    expect(['cli/commands/serve.js', 'server/host/device-host.js'].filter((name) => modules.has(name))).toEqual([
      'cli/commands/serve.js',
      'server/host/device-host.js',
    ]);
    expect(OTHER_COMMANDS_ONLY.filter((name) => modules.has(name))).toEqual([]);
    // The check sees our modules: serve's own are there.
    expect([modules.has('cli/commands/serve.js'), modules.has('server/modes/serve.js')]).toEqual([true, true]);
  });
});

describe('serve start-up', () => {
  it("a plain `serve` (no scenario files of the user's own, no --fault) answers without loading zod", async () => {
    const files = await filesLoadedByServe([]);
    expect(packagesOf(files).has('zod')).toBe(false);
    // The check sees what serve loads: its own modules and yargs.
    expect([ownModulesOf(files).has('server/host/device-host.js'), packagesOf(files).has('yargs')]).toEqual([
      true,
      true,
    ]);
  });

  it('a plain `serve` (no --https, --https-port, --cert) loads neither node:https, node:tls nor node:crypto, nor its certificate code', async () => {
    const files = await filesLoadedByServe([]);
    expect(files.filter((file) => ['node:https', 'node:tls', 'node:crypto'].includes(file))).toEqual([]);
    expect(['server/listen/tls-certificate.js'].filter((name) => ownModulesOf(files).has(name))).toEqual([]);
    // The check sees built-ins: node:http is there.
    expect(files).toContain('node:http');
  });

  it('`serve --fault` loads zod to read the flag (the check sees zod when it loads)', async () => {
    const files = await filesLoadedByServe(['--fault', 'meta/setting=status:500']);
    expect(packagesOf(files).has('zod')).toBe(true);
  });
});

describe('replay start-up', () => {
  it('`replay DIR` answers its devices without loading Express or msw (the admin API and dashboard load them on first use)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mockvideo-lazy-replay-'));
    try {
      // An empty folder: meta/setting gets the near-miss 404, through the routes.
      const files = await filesLoadedByCommand(['replay', dir], 404);
      expect(['express', 'msw', '@mswjs/http-middleware'].filter((name) => packagesOf(files).has(name))).toEqual([]);
      // The check sees what replay loads: its routes and its server.
      expect([
        ownModulesOf(files).has('server/host/device-host.js'),
        ownModulesOf(files).has('server/modes/replay.js'),
      ]).toEqual([true, true]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('`replay DIR` of well-formed recordings loads no zod (a quick check reads them; the schema only a file that fails it)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mockvideo-lazy-replay-'));
    try {
      const key = matchKey('GET', 'meta/setting', [], DEFAULT_POLICY);
      const recording: Recording = {
        operation: 'meta/setting',
        matchKey: key,
        recordedAt: '2026-11-22T00:00:00.000Z',
        request: { method: 'GET', path: '/api/g1/meta/setting', query: [], headers: {} },
        response: { status: 200, headers: { 'content-type': 'application/json' }, body: '{"code":0}' },
      };
      mkdirSync(join(dir, 'meta-setting'));
      writeFileSync(join(dir, 'meta-setting', `${keyHash(key)}-000.json`), formatRecording(recording));
      // meta/setting is answered from the recording (200).
      const files = await filesLoadedByCommand(['replay', dir], 200);
      expect(packagesOf(files).has('zod')).toBe(false);
      expect(ownModulesOf(files).has('normalise/recording-schema.js')).toBe(false);
      // The check sees the quick check load.
      expect(ownModulesOf(files).has('normalise/recording-check.js')).toBe(true);
      // node:crypto only names the files of recordings written (keyHash): replay reads them.
      expect(files.includes('node:crypto')).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the any-runtime entry', () => {
  const ENTRY = new URL('../../dist/index.js', import.meta.url).href;

  it("`import 'mockvideo'` loads neither zod, the scenario parser, nor the download libraries (issue 31: every test file pays for it)", () => {
    const files = filesLoadedBy(ENTRY);
    const packages = packagesOf(files);
    expect(
      ['zod', 'fast-png', 'jpeg-js', 'fflate', 'iobuffer', '@noble/hashes', 'content-disposition'].filter((name) =>
        packages.has(name),
      ),
    ).toEqual([]);
    expect(
      [
        'scenarios/parse.js',
        'scenarios/format.js',
        'scenarios/stub-schema.js',
        'scenarios/shipped.generated.js',
        'routes/downloads.js',
        'media/placeholder-image.js',
      ].filter((name) => ownModulesOf(files).has(name)),
    ).toEqual([]);
    // The check sees what the entry loads: the handlers, the compiled shipped catalog and msw.
    expect([
      ownModulesOf(files).has('msw/handlers.js'),
      ownModulesOf(files).has('scenarios/shipped-catalog.generated.js'),
      packages.has('msw'),
    ]).toEqual([true, true, true]);
  });

  it('`mockvideo/scenarios` (the scenario parser) loads zod', () => {
    const files = filesLoadedBy(new URL('../../dist/scenarios.js', import.meta.url).href);
    expect([packagesOf(files).has('zod'), ownModulesOf(files).has('scenarios/parse.js')]).toEqual([true, true]);
  });
});

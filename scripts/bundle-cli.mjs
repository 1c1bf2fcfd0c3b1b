// `npm run build`'s last step: the command line as an esbuild bundle in dist/cli-bundle/, which
// bin/mockvideo.js runs. The bundle is split at every lazy `import()` of dist/cli/main.js's graph
// (a command, the Express host, a download library), so a start loads what the modules of dist/cli
// would load, in fewer files: each ES module is one lookup, one asynchronous read, one compile and
// one link. Packages stay outside, but for the three small ones every start loads (IN_BUNDLE).
//
// The bundle sits two folders below the package root, like every module of dist/<area>/, so paths
// made from `import.meta.url` (the shipped scenarios, the dashboard, createRequire) stay right.
// dist/cli-bundle/modules.json names the modules of dist/ each file of the bundle holds, for
// test/perf/lazy-dependencies.test.ts (what a start loads, by module), and
// dist/cli-bundle/THIRD-PARTY-LICENSES.txt the licences of the packages whose code it holds.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { packagesIn, writeLicences } from './third-party-licences.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');
const out = join(dist, 'cli-bundle');
rmSync(out, { recursive: true, force: true });
// Packages load from node_modules, except the small ones every start loads (a file each, whose
// lookup, and for a CommonJS one its export detection, cost more than their code): bundled. yargs
// and what it loads are bundled too, with cliui's `string-width` and `wrap-ansi` taken as
// fast-string-width and fast-wrap-ansi (ALIASES): yargs renders a command's whole help at every run
// (it caches it for a failure), and string-width compiles its emoji expression on that first call.
// Cold start of `serve` (spawn → first answer), CPU profile of the start, Node 20: string-width,
// wrap-ansi and cliui took 131 ms of 577 ms sampled on a loaded machine; see docs/performance.md for
// the figure of this change.
const YARGS = ['yargs', 'yargs-parser', 'cliui', 'y18n', 'escalade', 'get-caller-file', 'strip-ansi', 'ansi-regex'];
const FAST_TEXT = ['fast-string-width', 'fast-string-truncated-width', 'fast-wrap-ansi'];
const IN_BUNDLE = ['fast-json-stable-stringify', 'fastest-levenshtein', 'picocolors', ...YARGS, ...FAST_TEXT];
const ALIASES = {
  'string-width': 'fast-string-width',
  'wrap-ansi': join(root, 'scripts', 'bundle-shims', 'wrap-ansi.mjs'),
};
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
// fast-check (an optional peer of the library) and its pure-rand are bundled too, in the lazy chunk of
// `serve --fuzz` and `fuzz show`: the CLI works where the library's users did not install fast-check.
const FUZZ_BUNDLE = ['fast-check', 'pure-rand'];
const external = [...Object.keys(manifest.dependencies), ...Object.keys(manifest.peerDependencies ?? {})]
  .filter((name) => !IN_BUNDLE.includes(name) && !FUZZ_BUNDLE.includes(name))
  .flatMap((name) => [name, `${name}/*`]);
const cli = await build({
  entryPoints: [join(dist, 'cli', 'main.js')],
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external,
  alias: ALIASES,
  outdir: out,
  chunkNames: 'chunk-[hash]',
  sourcemap: 'linked',
  metafile: true,
  logLevel: 'error',
});

const stray = [...packagesIn(cli.metafile.outputs)].filter(
  (name) => !IN_BUNDLE.includes(name) && !FUZZ_BUNDLE.includes(name),
);
if (stray.length)
  throw new Error(
    `bundle-cli: ${stray.join(', ')} bundled; name each in package.json's dependencies (or in IN_BUNDLE)`,
  );
// The licences of the packages bundled (their code ships inside dist/cli-bundle/), next to it.
writeLicences(root, out, packagesIn(cli.metafile.outputs), 'bundle-cli');
const modules = {};
for (const [file, output] of Object.entries(cli.metafile.outputs)) {
  if (!file.endsWith('.js')) continue;
  modules[relative(out, join(root, file)).split('\\').join('/')] = Object.keys(output.inputs)
    .filter((input) => input !== '<stdin>')
    .map((input) => relative(dist, join(root, input)).split('\\').join('/'))
    .sort();
}
writeFileSync(join(out, 'modules.json'), `${JSON.stringify(modules, null, 2)}\n`);
console.log(`cli-bundle: dist/cli-bundle/ (${Object.keys(modules).length} files)`);

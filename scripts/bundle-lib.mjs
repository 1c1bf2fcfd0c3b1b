// `npm run build`'s step after tsc: the package's ES module entries (mockvideo, mockvideo/node,
// mockvideo/contract, mockvideo/arbitraries, mockvideo/scenarios) as one esbuild build in dist/lib/,
// split into shared chunks and at every lazy `import()`, which package.json's "exports" give to
// `import`. Each ES module a test file loads is one lookup, one read, one compile and one link:
// `import 'mockvideo'` loaded about 70 modules of dist/ (Node 24 + msw 3, on top of msw: 38 ms
// CPU, median of 15 fresh processes); as bundle files, about 10 ms (issue 43, bench/import-time.mjs).
// One build for the five entries, so a class (ScenarioCatalog, MockvideoError) is one class whichever
// entry it comes from. Packages stay outside (the user's own copies); so do Node's built-ins, which
// only mockvideo/node reaches. Types stay tsc's (dist/*.d.ts), CommonJS stays dist/cjs/.
//
// The files sit two folders below the package root, like every module of dist/<area>/, so paths
// made from `import.meta.url` (the shipped scenarios of mockvideo/node) stay right.
// dist/lib/modules.json names the modules of dist/ each file holds, for the tests that check what
// an entry loads (test/package/bundle-size.test.ts).
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');
const out = join(dist, 'lib');
/** The ES module entries, as in package.json's "exports". */
const LIB_ENTRIES = ['index.js', 'node.js', 'contract/index.js', 'arbitraries.js', 'scenarios.js'];

rmSync(out, { recursive: true, force: true });
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const external = [
  ...Object.keys(manifest.dependencies),
  ...Object.keys(manifest.peerDependencies ?? {}),
  ...Object.keys(manifest.optionalDependencies ?? {}),
].flatMap((name) => [name, `${name}/*`]);
const lib = await build({
  // dist/lib/<name>.js, `contract` too (not contract/index.js): every file of dist/lib/ is two folders down.
  entryPoints: Object.fromEntries(
    LIB_ENTRIES.map((entry) => [entry.replace(/(\/index)?\.js$/, ''), join(dist, entry)]),
  ),
  bundle: true,
  splitting: true,
  format: 'esm',
  // Neutral: the any-runtime entries go on to browser bundlers as they are; Node's built-ins stay imports.
  platform: 'neutral',
  target: 'es2022',
  external: [...external, 'node:*'],
  outdir: out,
  chunkNames: 'chunk-[hash]',
  sourcemap: 'linked',
  metafile: true,
  logLevel: 'error',
});

const packages = Object.values(lib.metafile.outputs)
  .flatMap((output) => Object.keys(output.inputs))
  .filter((input) => input.includes('node_modules/'));
if (packages.length)
  throw new Error(`bundle-lib: ${[...new Set(packages)].join(', ')} bundled; name each in package.json's dependencies`);

const modules = {};
for (const [file, output] of Object.entries(lib.metafile.outputs)) {
  if (!file.endsWith('.js')) continue;
  modules[relative(out, join(root, file)).split('\\').join('/')] = Object.keys(output.inputs)
    .map((input) => relative(dist, join(root, input)).split('\\').join('/'))
    .sort();
}
writeFileSync(join(out, 'modules.json'), `${JSON.stringify(modules, null, 2)}\n`);
console.log(`lib: dist/lib/ (${Object.keys(modules).length} files for ${LIB_ENTRIES.join(', ')})`);

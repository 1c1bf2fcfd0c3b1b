// `npm run build`'s step after tsc: the package's ES module entries (mockvideo, mockvideo/node,
// mockvideo/contract, mockvideo/arbitraries, mockvideo/scenarios) as one esbuild build in dist/lib/,
// split into shared chunks and at every lazy `import()`, which package.json's "exports" give to
// `import`. Each ES module a test file loads is one lookup, one read, one compile and one link:
// `import 'mockvideo'` loaded about 70 modules of dist/; as bundle files it took about half the CPU
// (Node 24 + msw 3, on top of msw, the loaded 2-core machine: 31–35 ms against 61–91, medians of
// 20 fresh processes, interleaved; issue 43, bench/import-time.mjs).
// One build for the five entries, so a class (ScenarioCatalog, MockvideoError) is one class whichever
// entry it comes from. Packages stay outside (the user's own copies), but for the small ones every
// `import 'mockvideo'` loads (IN_LIB: each package is a lookup, a package.json, and for a CommonJS
// one its export detection): bundled, `import 'mockvideo'` took 33 ms of CPU against 36–43 with them
// outside (Node 24 + msw 3, the loaded 2-core machine, medians of 30 fresh processes, interleaved);
// their licences are in dist/lib/THIRD-PARTY-LICENSES.txt. Node's built-ins, which only
// mockvideo/node reaches, stay imports. Types stay tsc's (dist/*.d.ts), CommonJS stays dist/cjs/.
//
// The files sit two folders below the package root, like every module of dist/<area>/, so paths
// made from `import.meta.url` (the shipped scenarios of mockvideo/node) stay right.
// dist/lib/modules.json names the modules of dist/ each file holds, for the tests that check what
// an entry loads (test/package/bundle-size.test.ts).
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { packagesIn, writeLicences } from './third-party-licences.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');
const out = join(dist, 'lib');
/** The ES module entries, as in package.json's "exports". */
const LIB_ENTRIES = ['index.js', 'node.js', 'contract/index.js', 'arbitraries.js', 'scenarios.js'];
/** The small packages every `import 'mockvideo'` loads, bundled (see above). */
const IN_LIB = [
  'fast-json-stable-stringify',
  'fastest-levenshtein',
  'fast-string-width',
  'fast-string-truncated-width',
  'lru-cache',
  '@scure/base',
];

rmSync(out, { recursive: true, force: true });
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const external = [
  ...Object.keys(manifest.dependencies),
  ...Object.keys(manifest.peerDependencies ?? {}),
  ...Object.keys(manifest.optionalDependencies ?? {}),
]
  .filter((name) => !IN_LIB.includes(name))
  .flatMap((name) => [name, `${name}/*`]);
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
  mainFields: ['module', 'main'],
  target: 'es2022',
  external: [...external, 'node:*'],
  outdir: out,
  chunkNames: 'chunk-[hash]',
  sourcemap: 'linked',
  metafile: true,
  logLevel: 'error',
});

const stray = [...packagesIn(lib.metafile.outputs)].filter((name) => !IN_LIB.includes(name));
if (stray.length)
  throw new Error(`bundle-lib: ${stray.join(', ')} bundled; name each in package.json's dependencies (or in IN_LIB)`);
writeLicences(root, out, packagesIn(lib.metafile.outputs), 'bundle-lib');

const modules = {};
for (const [file, output] of Object.entries(lib.metafile.outputs)) {
  if (!file.endsWith('.js')) continue;
  modules[relative(out, join(root, file)).split('\\').join('/')] = Object.keys(output.inputs)
    .map((input) => relative(dist, join(root, input)).split('\\').join('/'))
    .sort();
}
writeFileSync(join(out, 'modules.json'), `${JSON.stringify(modules, null, 2)}\n`);
console.log(`lib: dist/lib/ (${Object.keys(modules).length} files for ${LIB_ENTRIES.join(', ')})`);

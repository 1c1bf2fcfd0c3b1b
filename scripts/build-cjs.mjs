// `npm run build`'s CommonJS step: the modules the package entries reach (mockvideo,
// mockvideo/node, mockvideo/contract) again as CommonJS in dist/cjs/, one file per module as tsc
// wrote them to dist/, so `require('mockvideo')` works where ES modules do not load (Jest 29/30 in
// CommonJS mode, ts-jest, React Native's Jest preset) without transforming our package. Their types
// are dist/'s .d.ts files copied beside them; dist/cjs/package.json says `"type": "commonjs"`, so
// TypeScript reads those as CommonJS declarations. `import.meta.url` (Node-only modules that locate
// files or call createRequire) becomes the URL of the module's ES twin in dist/, built from
// `__dirname`, so paths relative to it stay right and nothing that CommonJS loads holds
// `import.meta`. Run after tsc; needs nothing from the network.
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, transform } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');
const out = join(dist, 'cjs');
const ENTRIES = ['index.js', 'node.js', 'contract/index.js', 'arbitraries.js', 'scenarios.js'];
const META_URL = '__mockvideoImportMetaUrl';
/** Packages with no CommonJS build that dist/ imports: see {@link inlineEsmOnly}. */
const ESM_ONLY = ['fast-png', 'iobuffer', 'fast-string-width', 'fast-string-truncated-width'];

/** The CommonJS form of dist/`path` with the {@link ESM_ONLY} packages bundled into it (their code only: relative imports and other packages stay outside). */
async function inlineEsmOnly(path, usesMeta) {
  if (usesMeta)
    throw new Error(
      `dist/${path} imports ${ESM_ONLY.join(' or ')} and uses import.meta: build-cjs.mjs inlines those packages only into modules without import.meta.`,
    );
  const outside = {
    name: 'outside',
    setup: (b) =>
      b.onResolve({ filter: /.*/ }, (args) =>
        args.kind === 'entry-point' ||
        ESM_ONLY.some((name) => args.path === name || args.path.startsWith(`${name}/`)) ||
        (args.path.startsWith('.') && args.importer.includes('/node_modules/'))
          ? undefined
          : { path: args.path, external: true },
      ),
  };
  const result = await build({
    entryPoints: [join(dist, path)],
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    write: false,
    plugins: [outside],
    legalComments: 'inline',
    logLevel: 'error',
  });
  return { code: result.outputFiles[0].text };
}

function walk(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? walk(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}

// Every module of dist/ the entries reach, static or dynamic `import()`, packages left out.
const graph = await build({
  entryPoints: ENTRIES.map((entry) => join(dist, entry)),
  bundle: true,
  packages: 'external',
  platform: 'node',
  format: 'esm',
  splitting: true,
  outdir: join(root, '.cjs-graph'),
  write: false,
  metafile: true,
  logLevel: 'silent',
});
const modules = Object.keys(graph.metafile.inputs)
  .map((input) => relative(dist, join(root, input)).split('\\').join('/'))
  .filter((path) => !path.startsWith('..'))
  .sort();

rmSync(out, { recursive: true, force: true });
for (const path of modules) {
  const source = readFileSync(join(dist, path), 'utf8');
  const usesMeta = source.includes('import.meta');
  // A package that ships ES modules only (fast-png 8 and its iobuffer) goes into the module that imports it: CommonJS
  // Jest cannot require() an ES module, and Node only from 20.19. Relative imports and other packages stay require()s.
  const inlined = ESM_ONLY.filter((name) => source.includes(`from '${name}'`) || source.includes(`import('${name}')`));
  const { code } =
    inlined.length > 0
      ? await inlineEsmOnly(path, usesMeta)
      : await transform(source, {
          format: 'cjs',
          platform: 'node',
          target: 'node20',
          // A lazy `import('pkg')` becomes a lazy `require('pkg')`: Jest runs `import()` in CommonJS only with --experimental-vm-modules.
          supported: { 'dynamic-import': false },
          sourcefile: path,
          // import.meta.url is the URL of the ES module twin (dist/<path>), so paths computed from it (the shipped scenarios folder) and createRequire find what the ES module finds.
          ...(usesMeta
            ? {
                define: { 'import.meta.url': META_URL },
                banner: `const ${META_URL} = require("node:url").pathToFileURL(require("node:path").join(__dirname, ${JSON.stringify(
                  relative(dirname(join(out, path)), join(dist, path))
                    .split('\\')
                    .join('/'),
                )})).href;`,
              }
            : {}),
          logLevel: 'error',
        });
  if (code.includes('import.meta'))
    throw new Error(
      `dist/${path} uses import.meta beyond import.meta.url: CommonJS has no equivalent; use import.meta.url or a path from the caller.`,
    );
  mkdirSync(dirname(join(out, path)), { recursive: true });
  writeFileSync(join(out, path), code);
}

// The declarations as they are (their imports name ./x.js, which resolves to ./x.d.ts here too).
for (const file of walk(dist)) {
  const path = relative(dist, file).split('\\').join('/');
  if (!path.endsWith('.d.ts') || path.startsWith('cjs/') || path.startsWith('dashboard/') || path.startsWith('cli/'))
    continue;
  mkdirSync(dirname(join(out, path)), { recursive: true });
  copyFileSync(file, join(out, path));
}
writeFileSync(join(out, 'package.json'), `${JSON.stringify({ type: 'commonjs' }, null, 2)}\n`);
console.log(`cjs: dist/cjs/ (${modules.length} modules for ${ENTRIES.join(', ')})`);

// What `createHandlers` of `mockvideo` costs a browser app: esbuild bundles it from the build
// (dist/lib/, through the package's own exports and `"sideEffects": false`) for browsers, minified and
// split at lazy `import()`s, msw left out as the app's own dependency. What a test that never asks
// for an image or a package loads (the entry and the chunks it imports statically), every
// dependency included, must stay within 40 KB gzipped (issue 31). The shipped scenarios are compiled
// at build time, so neither zod nor the scenario parser belongs in it; the downloads (placeholder
// images, plugin ZIPs and their MD5, Content-Disposition) are a lazy chunk with their any-runtime
// libraries, one deflate library among them (fflate: fast-png 8 deflates with it, and the ZIPs are
// its own).
import { existsSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { build, type Metafile } from 'esbuild';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BUDGET_GZIP_BYTES = 40 * 1024;
/** The any-runtime libraries of the downloads (see src/routes/downloads.ts), the only ones allowed in, and only in a lazy chunk. */
const DOWNLOAD_LIBRARIES = ['content-disposition', 'fast-png', 'iobuffer', 'jpeg-js', '@noble/hashes', 'fflate'];
/**
 * The libraries the routes load at once: the display widths of the near-miss table
 * (src/text-table.ts), about 2 KB gzipped, the match key's stable JSON (src/normalise/match-key.ts,
 * reached through the replay index, which keys recordings by it), under 1 KB, the edit distance of
 * "Did you mean" in every unknown-scenario message (src/errors.ts), under 1 KB, and the per-device
 * state's bounded table (src/state/client-state.ts).
 */
const EAGER_LIBRARIES = [
  'fast-json-stable-stringify',
  'fast-string-truncated-width',
  'fast-string-width',
  'fastest-levenshtein',
  'lru-cache',
];
const libraryOf = (path: string) => /node_modules\/((?:@[^/]+\/)?[^/]+)\/(?!.*node_modules\/)/.exec(path)?.[1];

/** The minified browser bundle of `createHandlers`, split at lazy imports, msw left out. */
function bundle() {
  return build({
    // By package name, as an app imports it: the exports map and sideEffects of package.json apply.
    stdin: {
      contents:
        "import { createHandlers } from 'mockvideo';\nexport const handlers = createHandlers({ scenario: 'gallery' });",
      resolveDir: ROOT,
      loader: 'js',
    },
    bundle: true,
    platform: 'browser',
    format: 'esm',
    minify: true,
    splitting: true,
    outdir: `${ROOT}test-output/bundle-size`,
    external: ['msw'],
    metafile: true,
    write: false,
    logLevel: 'silent',
  });
}

/** The output files `entry` loads before it runs: itself and its static imports, transitively. */
function staticClosure(metafile: Metafile, entry: string): string[] {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const imported of metafile.outputs[file]!.imports)
      if (imported.kind === 'import-statement' && !imported.external) visit(imported.path);
  };
  visit(entry);
  return [...seen];
}

/** The modules of dist/ in each file of dist/lib/, the ES module build the exports map gives (scripts/bundle-lib.mjs writes it). */
const LIB_MODULES = (): Record<string, string[]> =>
  JSON.parse(readFileSync(`${ROOT}dist/lib/modules.json`, 'utf8')) as Record<string, string[]>;

/**
 * The packages and files of ours (paths) that end up in the output files `files` (metafile.inputs
 * also lists what tree shaking dropped); a file of dist/lib/ counts as the modules of dist/ it holds.
 */
function inputsOf(metafile: Metafile, files: readonly string[]): string[] {
  const lib = LIB_MODULES();
  return files.flatMap((file) =>
    Object.entries(metafile.outputs[file]!.inputs)
      .filter(([, use]) => use.bytesInOutput > 0)
      .flatMap(([path]) => {
        const bundled = /dist\/lib\/(.+\.js)$/.exec(path)?.[1];
        return bundled === undefined ? [path] : (lib[bundled] ?? []).map((module) => `dist/${module}`);
      }),
  );
}

describe('the browser bundle of createHandlers', () => {
  it.skipIf(!existsSync(`${ROOT}dist/index.js`))(
    'loads within 40 KB gzipped, dependencies included, until an image or a package is asked for',
    async () => {
      const result = await bundle();
      const { metafile } = result;
      const outputs = Object.keys(metafile.outputs);
      const entry = outputs.find((file) => metafile.outputs[file]!.entryPoint !== undefined)!;
      const eager = staticClosure(metafile, entry);
      const lazy = outputs.filter((file) => !eager.includes(file));
      const gzipped = (files: readonly string[]) =>
        files.reduce(
          (sum, file) =>
            sum +
            gzipSync(result.outputFiles.find((f) => f.path.endsWith(file.replace(/^.*\//, '/')))!.contents).length,
          0,
        );

      const eagerInputs = inputsOf(metafile, eager);
      expect(
        eagerInputs.filter((path) => path.includes('node_modules/zod/')),
        'zod in the bundle',
      ).toEqual([]);
      expect(
        eagerInputs.filter((path) => /dist\/scenarios\/(parse|format)\.js$/.test(path)),
        'the scenario parser in the bundle',
      ).toEqual([]);
      expect(
        eagerInputs.filter(
          (path) =>
            /dist\/media\//.test(path) && !path.endsWith('media-path.js') && !path.endsWith('plugin-entries.js'),
        ),
        'encoders loaded before an image is asked for',
      ).toEqual([]);
      expect(
        [...new Set(eagerInputs.map(libraryOf).filter(Boolean))].sort(),
        'packages loaded before a download is asked for',
      ).toEqual(EAGER_LIBRARIES);
      // The lazy chunks: the downloads, with their libraries and no other (one deflate library: no pako).
      const lazyInputs = inputsOf(metafile, lazy);
      expect([...new Set(lazyInputs.map(libraryOf).filter(Boolean))].sort()).toEqual([...DOWNLOAD_LIBRARIES].sort());
      expect(lazyInputs.some((path) => path.endsWith('dist/media/placeholder-image.js'))).toBe(true);

      const eagerBytes = gzipped(eager);
      const allBytes = gzipped(outputs);
      console.info(
        `[bundle size] createHandlers, minified and gzipped: ${eagerBytes} bytes loaded until a download is asked for (${eager.length} files; budget ${BUDGET_GZIP_BYTES}); ${allBytes} bytes with the lazy chunks (${outputs.length} files)`,
      );
      expect(eagerBytes).toBeLessThanOrEqual(BUDGET_GZIP_BYTES);
    },
  );
});

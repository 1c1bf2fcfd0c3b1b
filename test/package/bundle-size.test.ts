// What `createHandlers` of `mockvideo` costs a browser app: esbuild bundles it from the build
// (dist/, through the package's own exports and `"sideEffects": false`) for browsers, msw left out
// as the app's own dependency, and mockvideo's own share must stay within 40 KB gzipped. The shipped
// scenarios are compiled at build time, so neither zod nor the scenario parser belongs in it. The
// downloads the handlers answer (placeholder images, plugin ZIPs and their MD5, Content-Disposition)
// bring their any-runtime libraries, and only those.
import { existsSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BUDGET_GZIP_BYTES = 40 * 1024;
/** The any-runtime libraries of the downloads (see src/routes/downloads.ts), the only ones allowed in. */
const DOWNLOAD_LIBRARIES = ['content-disposition', 'fast-png', 'iobuffer', 'pako', 'jpeg-js', '@noble/hashes', 'fflate'];
const libraryOf = (path: string) => /node_modules\/((?:@[^/]+\/)?[^/]+)\/(?!.*node_modules\/)/.exec(path)?.[1];

/** The minified browser bundle of `createHandlers`, with `external` packages left out. */
function bundle(external: string[]) {
  return build({
    // By package name, as an app imports it: the exports map and sideEffects of package.json apply.
    stdin: { contents: "import { createHandlers } from 'mockvideo';\nexport const handlers = createHandlers({ scenario: 'gallery' });", resolveDir: ROOT, loader: 'js' },
    bundle: true,
    platform: 'browser',
    format: 'esm',
    minify: true,
    external,
    metafile: true,
    write: false,
    logLevel: 'silent',
  });
}

describe('the browser bundle of createHandlers', () => {
  it.skipIf(!existsSync(`${ROOT}dist/index.js`))('holds no zod and stays within 40 KB gzipped of mockvideo code', async () => {
    const result = await bundle(['msw']);
    // What ends up in the output (metafile.inputs also lists what tree shaking dropped).
    const inputs = Object.values(result.metafile.outputs).flatMap((output) => Object.entries(output.inputs).filter(([, use]) => use.bytesInOutput > 0).map(([path]) => path));
    expect(inputs.filter((path) => path.includes('node_modules/zod/')), 'zod in the bundle').toEqual([]);
    expect(inputs.filter((path) => /dist\/scenarios\/(parse|format)\.js$/.test(path)), 'the scenario parser in the bundle').toEqual([]);
    const outside = inputs.filter((path) => path !== '<stdin>' && (path.includes('node_modules/') || !path.startsWith('dist/')));
    expect(outside.filter((path) => !DOWNLOAD_LIBRARIES.includes(libraryOf(path) ?? '')), 'code other than mockvideo and its download libraries (msw is external)').toEqual([]);
    // mockvideo's own share: the same bundle with the download libraries left out too.
    const own = await bundle(['msw', ...DOWNLOAD_LIBRARIES]);
    const gzipped = gzipSync(own.outputFiles[0]!.contents).length;
    console.info(`[bundle size] createHandlers: ${result.outputFiles[0]!.contents.length} bytes minified in all; mockvideo's own ${own.outputFiles[0]!.contents.length} bytes minified, ${gzipped} bytes gzipped (budget ${BUDGET_GZIP_BYTES})`);
    expect(gzipped).toBeLessThanOrEqual(BUDGET_GZIP_BYTES);
  });
});

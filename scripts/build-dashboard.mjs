// Builds the QA dashboard served at /__mockvideo/: typechecks src/dashboard against the DOM only
// (tsconfig.dashboard.json), bundles src/dashboard/main.ts with esbuild and writes
// dist/dashboard/{index.html,app.js,app.css}. Run by `npm run build`; needs nothing from the network.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = new URL('../', import.meta.url);
const source = (name) => fileURLToPath(new URL(`src/dashboard/${name}`, root));
const out = fileURLToPath(new URL('dist/dashboard/', root));

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const check = spawnSync(process.execPath, [tsc, '-p', fileURLToPath(new URL('tsconfig.dashboard.json', root))], {
  stdio: 'inherit',
});
if (check.status !== 0) {
  console.error('dashboard: src/dashboard does not typecheck: fix the errors above, then run "npm run build" again.');
  process.exit(1);
}

mkdirSync(out, { recursive: true });
const common = {
  bundle: true,
  minify: true,
  legalComments: 'none',
  logLevel: 'warning',
  target: ['chrome109', 'firefox115', 'safari15.4'],
};
await build({
  ...common,
  entryPoints: [source('main.ts')],
  outfile: `${out}app.js`,
  format: 'esm',
  platform: 'browser',
});
await build({ ...common, entryPoints: [source('app.css')], outfile: `${out}app.css` });
copyFileSync(source('index.html'), `${out}index.html`);
console.log('dashboard: dist/dashboard/{index.html,app.js,app.css}');

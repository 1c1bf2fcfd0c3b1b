// `npm run build`'s first step: deletes what an earlier build left in dist/ that no source makes any
// more (a renamed or deleted module), so the package never ships a stale file. Unlike emptying
// dist/, it leaves the current files in place while tsc rewrites them, so a CLI started during a
// build (another terminal, a test run) still finds dist/cli/main.js.
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');
/** Made by scripts/build-dashboard.mjs, not by tsc. */
const BUNDLED = /^dashboard\/(?:app\.js|app\.css|index\.html)(?:\.map)?$/;

function walk(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? walk(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}

if (existsSync(dist)) {
  for (const file of walk(dist)) {
    const rel = relative(dist, file).split('\\').join('/');
    if (BUNDLED.test(rel)) continue;
    const stem = rel.replace(/(\.d)?\.js(\.map)?$|\.d\.ts(\.map)?$/, '');
    if (!existsSync(join(root, 'src', `${stem}.ts`))) rmSync(file);
  }
}

// `npm install`'s build (package.json "prepare"): `npm run build`, unless dist/ was built by this
// script from the same inputs. In a fresh clone, `npm install` builds (about 40 s), and the README's
// first command then runs `npx mockvideo serve`; npx installs the clone into its cache (it has a
// `mockvideo` bin of its own), which runs "prepare" again out of sight: that second build kept the
// first start silent for 20–32 s. Now it finds the build up to date and the server prints its URL
// in about a second (measured on a fresh clone, 2 cores, issue 43).
//
// The inputs are every file of src/, scripts/, scenarios/ and bin/ (without the *.generated.ts
// files the build writes), package.json, package-lock.json, the tsconfig files and
// node_modules/.package-lock.json (what npm installed): their SHA-256, written to dist/.prepared
// after a build that succeeded. `npm run build` deletes that file first (scripts/clean-dist.mjs
// removes what no source makes), so a build by hand, a failed build or any changed input builds again.
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const FOLDERS = ['src', 'scripts', 'scenarios', 'bin'];
const FILES = ['package.json', 'package-lock.json', 'node_modules/.package-lock.json'];
/** What the build writes into src/ (see .gitignore): outputs, not inputs. */
const GENERATED = /\.generated\.ts$/;
/** The stamp, below `root`. */
export const STAMP = 'dist/.prepared';
/** A file every complete build has (the command line's bundle, written last). */
const BUILT = 'dist/cli-bundle/main.js';

function walk(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? walk(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}

/** The SHA-256 (hex) of the build's inputs below `root`: each file's path and content, in path order. */
export function inputsHash(root) {
  const files = [
    ...FOLDERS.flatMap((folder) => walk(join(root, folder))),
    ...FILES.map((file) => join(root, file)).filter((file) => existsSync(file)),
    ...readdirSync(root)
      .filter((name) => /^tsconfig.*\.json$/.test(name))
      .map((name) => join(root, name)),
  ]
    .map((file) => relative(root, file).split('\\').join('/'))
    .filter((path) => !GENERATED.test(path))
    .sort();
  const hash = createHash('sha256');
  for (const path of files)
    hash
      .update(`${path}\0`)
      .update(readFileSync(join(root, path)))
      .update('\0');
  return hash.digest('hex');
}

/** Whether dist/ below `root` is a complete build of the inputs as they are (see {@link inputsHash}). */
export function isPrepared(root) {
  const stamp = join(root, STAMP);
  return existsSync(stamp) && existsSync(join(root, BUILT)) && readFileSync(stamp, 'utf8').trim() === inputsHash(root);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const root = fileURLToPath(new URL('..', import.meta.url));
  if (isPrepared(root)) {
    console.log('mockvideo: dist/ is up to date with the sources (no build needed).');
  } else {
    console.log('mockvideo: building dist/ (about 40 s) …');
    const inputs = inputsHash(root);
    // npm runs this script with npm_execpath set; without npm (node scripts/prepare.mjs), the npm on PATH.
    const npm = process.env.npm_execpath
      ? [process.execPath, [process.env.npm_execpath, 'run', 'build']]
      : ['npm', ['run', 'build']];
    const build = spawnSync(npm[0], npm[1], {
      cwd: root,
      stdio: 'inherit',
      shell: !process.env.npm_execpath && process.platform === 'win32',
    });
    if (build.status !== 0) process.exit(build.status ?? 1);
    writeFileSync(join(root, STAMP), `${inputs}\n`);
  }
}

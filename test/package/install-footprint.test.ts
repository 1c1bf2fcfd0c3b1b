// What `npm install mockvideo msw` brings into an empty project (issue 31): the tarball of
// `npm pack` and the msw major of this repository's node_modules, resolved by npm into a lock file
// (`--package-lock-only`: nothing is downloaded or run; `--prefer-offline`: the npm cache answers
// what it can). It reports the package count and every package that comes at more than one
// version, and holds that no framework comes twice (one Express: @mswjs/http-middleware and its
// Express 4 are gone) and that nothing resolves from a registry outside npm's.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** Packages a project must hold once: two copies are two servers, two msw instances or two schema libraries. */
const ONCE = ['express', 'msw', 'zod', 'undici', 'fflate'];
const WORK = mkdtempSync(join(tmpdir(), 'mockvideo-footprint-'));

afterAll(() => rmSync(WORK, { recursive: true, force: true }));

describe.skipIf(!existsSync(join(ROOT, 'dist/index.js')))('npm install mockvideo msw into an empty project', () => {
  it('resolves to one copy of each framework, and reports the package count', () => {
    const env = { ...process.env, NO_COLOR: '1', npm_config_audit: 'false', npm_config_fund: 'false' };
    // --ignore-scripts: pack the build that is there.
    const packed = execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', WORK], {
      cwd: ROOT,
      encoding: 'utf8',
      env,
    });
    const [{ filename }] = JSON.parse(packed.slice(packed.indexOf('['))) as [{ filename: string }];
    const project = join(WORK, 'project');
    execFileSync('mkdir', ['-p', project]);
    writeFileSync(
      join(project, 'package.json'),
      `${JSON.stringify({ name: 'empty', version: '1.0.0', private: true }, null, 2)}\n`,
    );
    const msw = (JSON.parse(readFileSync(join(ROOT, 'node_modules/msw/package.json'), 'utf8')) as { version: string })
      .version;
    execFileSync(
      'npm',
      ['install', '--package-lock-only', '--prefer-offline', '--ignore-scripts', join(WORK, filename), `msw@${msw}`],
      { cwd: project, encoding: 'utf8', env, timeout: 150_000 },
    );

    const lock = JSON.parse(readFileSync(join(project, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { version?: string; resolved?: string }>;
    };
    const installed = Object.entries(lock.packages).filter(([path]) => path !== '');
    const versions = new Map<string, Set<string>>();
    for (const [path, { version }] of installed) {
      const name = path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);
      versions.set(name, (versions.get(name) ?? new Set()).add(version ?? '?'));
    }
    const twice = [...versions].filter(([, v]) => v.size > 1).map(([name, v]) => `${name} ${[...v].join(', ')}`);
    console.info(
      `[install footprint] mockvideo 0.1.0 + msw ${msw}: ${installed.length} packages; at more than one version: ${twice.join('; ') || 'none'}`,
    );

    expect(ONCE.map((name) => [name, versions.get(name)?.size ?? 0])).toEqual(ONCE.map((name) => [name, 1]));
    expect(installed.filter(([path]) => /node_modules\/express$/.test(path)).length, 'copies of Express').toBe(1);
    expect(versions.has('@mswjs/http-middleware')).toBe(false);
    // The check sees the tree: mockvideo's own dependencies are in it.
    expect(['mockvideo', 'fast-png', 'yargs'].filter((name) => versions.has(name))).toEqual([
      'mockvideo',
      'fast-png',
      'yargs',
    ]);
  }, 200_000);
});

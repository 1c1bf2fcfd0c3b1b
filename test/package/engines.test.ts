// `engines.node` tells the truth (issue 31): every Node version it admits is admitted by every
// package the install brings (the dependencies, and theirs), and it admits the lines .ci/run tests.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

interface Manifest {
  name: string;
  version: string;
  engines?: { node?: string };
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

const read = (file: string): Manifest => JSON.parse(readFileSync(file, 'utf8')) as Manifest;

/** Every package of the production install, found as Node finds it from the package that needs it. */
function productionTree(): Manifest[] {
  const seen = new Map<string, Manifest>();
  const visit = (dir: string, names: string[]) => {
    const lookup = createRequire(join(dir, 'package.json')).resolve.paths('x') ?? [];
    for (const name of names) {
      const file = lookup
        .map((modules) => join(modules, name, 'package.json'))
        .find((candidate) => existsSync(candidate));
      if (file === undefined) throw new Error(`${name} (a dependency of ${dir}) is not installed`);
      if (seen.has(file)) continue;
      const manifest = read(file);
      seen.set(file, manifest);
      visit(dirname(file), Object.keys(manifest.dependencies ?? {}));
    }
  };
  visit(ROOT, Object.keys(read(join(ROOT, 'package.json')).dependencies ?? {}));
  return [...seen.values()];
}

describe('engines.node', () => {
  const ours = read(join(ROOT, 'package.json'));
  const range = ours.engines!.node!;

  it('admits no Node version that a package of the install refuses', () => {
    const tree = productionTree();
    expect(tree.length).toBeGreaterThan(20);
    const refusing = tree
      .filter((p) => p.engines?.node && !semver.subset(range, p.engines.node))
      .map((p) => `${p.name}@${p.version}: ${p.engines!.node}`);
    expect(refusing, `"${range}" admits versions these refuse`).toEqual([]);
  });

  it('admits the lines .ci/run tests (Node 20 with msw 2, Node 24 with msw 3) and the peer range takes both msw majors', () => {
    expect(
      ['20.19.0', '20.20.2', '22.12.0', '24.0.0', '24.21.0'].filter((version) => !semver.satisfies(version, range)),
    ).toEqual([]);
    expect(['20.17.0', '20.18.3', '22.11.0', '23.5.0'].filter((version) => semver.satisfies(version, range))).toEqual(
      [],
    );
    expect(ours.peerDependencies?.msw).toBe('^2.15.0 || ^3.0.0');
  });
});

// The licences of the packages a bundle of ours holds (scripts/bundle-cli.mjs, scripts/bundle-lib.mjs):
// their code ships inside the bundle's folder, so their licence notices ship beside it.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The packages (names) whose files are among the inputs of esbuild's `outputs` (a metafile's). */
export function packagesIn(outputs) {
  return new Set(
    Object.values(outputs)
      .flatMap((output) => Object.keys(output.inputs))
      .map((input) => /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input)?.[1])
      .filter(Boolean),
  );
}

/** Writes `<out>/THIRD-PARTY-LICENSES.txt`: each of `names` (packages below `root`/node_modules) with its version and licence. */
export function writeLicences(root, out, names, by) {
  const licenceOf = (name) => {
    const dir = join(root, 'node_modules', name);
    const file = readdirSync(dir).find((entry) => /^licen[cs]e/i.test(entry));
    if (!file) throw new Error(`${by}: ${name} is bundled but has no licence file in ${dir}`);
    return `${name}@${JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).version}\n\n${readFileSync(join(dir, file), 'utf8').trim()}\n`;
  };
  writeFileSync(
    join(out, 'THIRD-PARTY-LICENSES.txt'),
    `Packages bundled into this folder by scripts/${by}.mjs, with their licences.\n\n${[...names].sort().map(licenceOf).join('\n---\n\n')}`,
  );
}

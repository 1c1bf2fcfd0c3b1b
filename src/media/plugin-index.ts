import type { ScenarioCatalog } from '../scenarios/catalog.js';
import { pluginEntries } from './plugin-entries.js';
import { md5Hex, packageContentType, pluginPackage } from './plugin-package.js';

/** One package the server serves at `/__mockvideo/plugins/<file>`. */
export interface ServedPackage {
  /** `<md5>.<ext>`, the file name of the entry's `url`. */
  file: string;
  id: string;
  version: number;
  /** The `md5` the plugin entry declares. */
  declaredMd5: string;
  /** The MD5 of the bytes served; differs from `declaredMd5` in a scenario like `corrupt-plugin`. */
  servedMd5: string;
  size: number;
  contentType: string;
  /** The scenarios whose `meta/plugin` lists this file. */
  scenarios: string[];
  bytes: Uint8Array;
}

/**
 * The plugin packages of every scenario of `catalog`, by file name `<md5>.<ext>` (the file name of
 * each entry's `url`). The bytes are {@link pluginPackage} of the entry's `id`, `version` and `type`,
 * whatever `md5` the entry declares: when two entries declare the same file, the one whose bytes
 * really have that MD5 wins.
 */
export function pluginPackages(catalog: ScenarioCatalog): Map<string, ServedPackage> {
  const files = new Map<string, ServedPackage>();
  for (const scenario of catalog.names) {
    for (const entry of pluginEntries(catalog, scenario)) {
      if (
        typeof entry.id !== 'string' ||
        typeof entry.version !== 'number' ||
        typeof entry.url !== 'string' ||
        typeof entry.md5 !== 'string'
      )
        continue;
      const file = entry.url.split(/[?#]/)[0]!.split('/').pop() ?? '';
      if (!file) continue;
      const known = files.get(file);
      if (known && known.id === entry.id && known.version === entry.version) {
        if (!known.scenarios.includes(scenario)) known.scenarios.push(scenario);
        continue;
      }
      const bytes = pluginPackage({ id: entry.id, version: entry.version, type: String(entry.type ?? '') });
      const servedMd5 = md5Hex(bytes);
      if (known && known.servedMd5 === known.declaredMd5) continue;
      files.set(file, {
        file,
        id: entry.id,
        version: entry.version,
        declaredMd5: entry.md5,
        servedMd5,
        size: bytes.length,
        contentType: packageContentType(file),
        scenarios: [scenario],
        bytes,
      });
    }
  }
  return files;
}

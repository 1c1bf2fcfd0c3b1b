import { md5 } from '@noble/hashes/legacy.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { strToU8, zipSync } from 'fflate';

/** What a plugin package is built from: the entry's `id`, `version` and `type`. @see docs/contract.md#plugin-entry. */
export interface PluginPackageSource {
  id: string;
  version: number;
  type: string;
}

// A local-time date, so the ZIP's DOS timestamps (local time) are the same in every time zone.
const MTIME = new Date(2024, 0, 1, 0, 0, 0);

/** A small ZIP (stored, fixed timestamps, fflate: any runtime) whose entries describe `manifest`; same input, same bytes. */
function packageBytes(manifest: Record<string, string | number>): Uint8Array {
  const lines = Object.entries(manifest).map(([k, v]) => `${k}: ${v}`);
  return zipSync(
    {
      'META-INF/MANIFEST.MF': [
        strToU8(`Manifest-Version: 1.0\r\nCreated-By: mockvideo\r\n\r\n`),
        { level: 0, mtime: MTIME },
      ],
      'mockvideo-package.txt': [
        strToU8(`${['A placeholder package served by mockvideo. It is not installable.', ...lines].join('\n')}\n`),
        { level: 0, mtime: MTIME },
      ],
    },
    { level: 0, mtime: MTIME },
  );
}

/**
 * The bytes of the package of a plugin entry: a small ZIP (an APK is a ZIP) made only from `id`,
 * `version` and `type`, so the generator can put `md5(bytes)` in the entry and the server can serve
 * the same bytes at `<md5>.<ext>`. Not an installable APK.
 *
 * @example md5Hex(pluginPackage({ id: 'streamly', version: 12, type: 'player_plugin' })) // the entry's md5
 * @see docs/contract.md#plugin-entry: `md5` is "checksum of the package".
 */
export function pluginPackage(source: PluginPackageSource): Uint8Array {
  return packageBytes({ kind: 'plugin', id: source.id, version: source.version, type: source.type });
}

/** The bytes served for a content provider's `apk_url` `/__mockvideo/apk/<name>.apk`: a ZIP made from `name`. */
export function providerPackage(name: string): Uint8Array {
  return packageBytes({ kind: 'provider-apk', name });
}

/** The MD5 of `bytes` (a string as UTF-8) as 32 lowercase hexadecimal characters, the form of a plugin entry's `md5`. Any runtime (@noble/hashes). */
export function md5Hex(bytes: Uint8Array | string): string {
  return bytesToHex(md5(typeof bytes === 'string' ? strToU8(bytes) : bytes));
}

/** The content type of a package file by its extension: `.apk` → `application/vnd.android.package-archive`. */
export function packageContentType(fileName: string): string {
  const ext = fileName.split('.').pop()?.toLowerCase();
  if (ext === 'apk') return 'application/vnd.android.package-archive';
  if (ext === 'zip' || ext === 'jar') return 'application/zip';
  return 'application/octet-stream';
}

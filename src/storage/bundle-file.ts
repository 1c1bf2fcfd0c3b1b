import { readFileSync } from 'node:fs';
import { parseBundle } from '../bundle/bundle-schema.js';
import type { Bundle } from '../bundle/format.js';
import { bundleText } from '../bundle/build.js';
import { MockvideoError } from '../errors.js';
import { writeFileAtomically } from './write-file-atomically.js';

/**
 * Reads and checks a start-up bundle file (see `parseBundle`).
 * @throws MockvideoError (`MV_BUNDLE_INVALID`), one line naming `file`: it cannot be read, is not JSON, or breaks the format (naming the field).
 * @example readBundleFile('qa/mockvideo-bundle-7.json').exchanges.length // 7
 */
export function readBundleFile(file: string): Bundle {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    throw new MockvideoError(
      'MV_BUNDLE_INVALID',
      `Failed to load the bundle ${file}: ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a folder' : message}. Give the path of a bundle from GET /__mockvideo/start-ups/ID/bundle.`,
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new MockvideoError(
      'MV_BUNDLE_INVALID',
      `Failed to load the bundle ${file}: it is not JSON (${(error as Error).message}). Download the bundle again (GET /__mockvideo/start-ups/ID/bundle).`,
    );
  }
  return parseBundle(value, file);
}

/**
 * Writes a bundle to `file` atomically (a reader sees the whole file or none, see
 * `writeFileAtomically`), as the admin API gives it (`bundleText`).
 * @throws the file system's error (`ENOENT` for a missing folder, `ENOSPC`, …).
 */
export async function writeBundleFile(file: string, bundle: Bundle): Promise<void> {
  await writeFileAtomically(file, bundleText(bundle));
}

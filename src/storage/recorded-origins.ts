import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readFolderFileSync } from './folder-file.js';

/**
 * The file of a recording folder naming the upstreams it was recorded from: `{"origins":
 * ["https://api.example.com"]}`. No `.json` ending: readers of recording files pass it by. It holds
 * origins only (scheme, host, port), never a path, query or credential.
 */
const RECORDED_ORIGINS_FILE = '.mockvideo-origins';

/**
 * The upstream origins a recording folder was recorded from (`https://api.example.com`), oldest
 * first; `[]` when the folder does not say (recorded before mockvideo kept them, or imported).
 * Never throws: an unreadable or malformed file counts as none.
 */
export function readRecordedOrigins(dir: string): string[] {
  try {
    const { text = '' } = readFolderFileSync(dir, join(dir, RECORDED_ORIGINS_FILE), 'recording folder');
    const { origins } = JSON.parse(text) as { origins?: unknown };
    return Array.isArray(origins) ? origins.filter((o): o is string => typeof o === 'string' && URL.canParse(o)) : [];
  } catch {
    return [];
  }
}

/**
 * Adds the origin of `upstream` (a URL) to the folder's {@link RECORDED_ORIGINS_FILE}, once.
 * @throws the file system's error when the file cannot be written.
 */
export function addRecordedOrigin(dir: string, upstream: string): void {
  const origin = new URL(upstream).origin;
  const origins = readRecordedOrigins(dir);
  if (origins.includes(origin)) return;
  writeFileSync(join(dir, RECORDED_ORIGINS_FILE), `${JSON.stringify({ origins: [...origins, origin] }, null, 2)}\n`);
}

import { existsSync, rmdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/**
 * The folders of `dir`'s path that do not exist yet, `dir` first, then its missing parents: what
 * `mkdirSync(dir, { recursive: true })` would create. Empty when `dir` exists.
 *
 * @example missingFolders('out/a/b') // ['/cwd/out/a/b', '/cwd/out/a'] when out/ exists
 */
export function missingFolders(dir: string): string[] {
  const missing: string[] = [];
  for (let folder = resolve(dir); !existsSync(folder) && dirname(folder) !== folder; folder = dirname(folder))
    missing.push(folder);
  return missing;
}

/**
 * Removes `folders` (as {@link missingFolders} lists them: deepest first) where they are empty, so
 * that a command that failed to start leaves nothing behind; a folder that holds anything stays.
 * Never throws.
 */
export function removeEmptyFolders(folders: readonly string[]): void {
  for (const folder of folders) {
    try {
      rmdirSync(folder);
    } catch {
      return;
    }
  }
}

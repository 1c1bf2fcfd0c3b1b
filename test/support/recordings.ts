import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A fresh temporary folder for recordings. */
export function tempDir(prefix = 'mockvideo-rec-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** Every recording file of a folder as `{ name, text }`, names like `meta-cp/0a1b2c3d4e5f-000.json`, sorted. */
export function recordingFiles(dir: string): Array<{ name: string; text: string }> {
  const out: Array<{ name: string; text: string }> = [];
  for (const folder of readdirSync(dir, { withFileTypes: true })) {
    if (!folder.isDirectory()) continue;
    for (const file of readdirSync(join(dir, folder.name)).sort()) out.push({ name: `${folder.name}/${file}`, text: readFileSync(join(dir, folder.name, file), 'utf8') });
  }
  return out.sort((a, b) => a.name.localeCompare(b.name));
}

/** GETs `url` and returns the status, headers and exact body bytes. */
export async function getBytes(url: string, init?: RequestInit) {
  const response = await fetch(url, init);
  return { status: response.status, headers: response.headers, body: Buffer.from(await response.arrayBuffer()) };
}

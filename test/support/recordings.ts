import { base64, base64nopad, base64url, base64urlnopad, hex } from '@scure/base';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The shortest value redaction looks for in other text: docs/recording-safety.md ("if 8 characters or longer"). */
const MIN_SCANNED_LENGTH = 8;

/** `\uXXXX`: a UTF-16 code unit as a JSON escape. */
const unicodeEscape = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/**
 * Every literal form of a value that the scrubber must find, for leak checks: raw, percent (both hex
 * cases, `+`; once, and twice as in a nested deep link), JSON escapes (`\/`, `\u0026`, `\u003d`, all `\uXXXX`), base64 (standard, URL-safe,
 * padded and not) and hex (both cases).
 */
export function encodedForms(value: string): string[] {
  const bytes = new TextEncoder().encode(value);
  const component = encodeURIComponent(value);
  const json = JSON.stringify(value).slice(1, -1);
  const forms = [
    value,
    component,
    component.replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase()),
    component.replace(/%20/g, '+'),
    encodeURIComponent(component),
    encodeURIComponent(component.replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase())),
    encodeURI(value),
    json,
    json.replace(/\//g, '\\/'),
    json.replace(/[&=<>']/g, unicodeEscape),
    value.split('').map(unicodeEscape).join(''),
    ...[base64, base64nopad, base64url, base64urlnopad].map((coder) => coder.encode(bytes)),
    hex.encode(bytes),
    hex.encode(bytes).toUpperCase(),
  ];
  return [...new Set(forms)].filter((form) => form.length >= MIN_SCANNED_LENGTH);
}

const created: string[] = [];

/** Removes every folder {@link tempDir} made in this test file; call it in `afterAll`. */
export function removeTempDirs(): void {
  for (const dir of created.splice(0)) rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
}

/** A fresh temporary folder for recordings; {@link removeTempDirs} removes it. */
export function tempDir(prefix = 'mockvideo-rec-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  created.push(dir);
  return dir;
}

/** Every recording file (`*.json`) of a folder as `{ name, text }`, names like `meta-cp/0a1b2c3d4e5f-000.json`, sorted. */
export function recordingFiles(dir: string): Array<{ name: string; text: string }> {
  const out: Array<{ name: string; text: string }> = [];
  for (const folder of readdirSync(dir, { withFileTypes: true })) {
    if (!folder.isDirectory()) continue;
    for (const file of readdirSync(join(dir, folder.name)).sort()) {
      // Only finished files: a temporary file (`x.json.<pid>.<n>.tmp`) may be renamed away meanwhile.
      if (file.endsWith('.json'))
        out.push({ name: `${folder.name}/${file}`, text: readFileSync(join(dir, folder.name, file), 'utf8') });
    }
  }
  return out.sort((a, b) => a.name.localeCompare(b.name));
}

/** GETs `url` and returns the status, headers and exact body bytes. */
export async function getBytes(url: string, init?: RequestInit) {
  const response = await fetch(url, init);
  return { status: response.status, headers: response.headers, body: Buffer.from(await response.arrayBuffer()) };
}

/**
 * Records `paths` (client paths such as `clientPath('meta/cp')`) through `mockvideo record` from
 * `upstream` into a new temporary folder (or `dir`), one after the other, then stops the recorder.
 */
export async function recordSession(
  upstream: string,
  paths: readonly string[],
  extraArgs: string[] = [],
  dir = tempDir(),
): Promise<{ dir: string; bodies: Buffer[]; stdout: string }> {
  const { startCli } = await import('./cli.js');
  const recorder = await startCli(['record', '--upstream', upstream, '--out', dir, '--port', '0', ...extraArgs]);
  const bodies: Buffer[] = [];
  for (const path of paths) bodies.push((await getBytes(`${recorder.url}${path}`)).body);
  await recorder.stop('SIGINT');
  return { dir, bodies, stdout: recorder.stdout() };
}

/** Resolves once `read()` matches `pattern` (e.g. a log line written after the answer), or fails after `ms`. */
export async function eventually(read: () => string, pattern: RegExp, ms = 3000): Promise<string> {
  const until = Date.now() + ms;
  for (;;) {
    const text = read();
    if (pattern.test(text) || Date.now() > until) return text;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

import { request } from 'node:http';
import { request as httpsRequest } from 'node:https';

/** A GET over node:http to `url`, with optional headers (fetch cannot set `Host`); resolves with status, headers and bytes. */
export function rawGet(
  url: string,
  headers: Record<string, string> = {},
  ca?: string,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  const target = new URL(url);
  const send = target.protocol === 'https:' ? httpsRequest : request;
  return new Promise((resolve, reject) => {
    const req = send(target, { headers, ...(ca ? { ca } : {}) }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** Every string of a JSON value under one of `keys`, at any depth. */
export function stringsAt(value: unknown, keys: readonly string[]): string[] {
  if (Array.isArray(value)) return value.flatMap((v) => stringsAt(v, keys));
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([k, v]) =>
      keys.includes(k) && typeof v === 'string' ? [v] : stringsAt(v, keys),
    );
  }
  return [];
}

import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OperationName } from '../../src/contract/index.js';
import { clientPath } from '../support/client.js';
import { startCli, type CliProcess } from '../support/cli.js';

let server: CliProcess;
beforeAll(async () => {
  server = await startCli(['serve', '--port', '0']);
});
afterAll(async () => {
  await server.stop();
});

/** Sends a GET (optionally with a body) and returns the journal entry it made. */
async function journaled(path: string, body?: string) {
  await fetch(`${server.url}/__mockvideo/requests`, { method: 'DELETE' });
  const status = await new Promise<number>((resolve, reject) => {
    const req = request(
      `${server.url}${path}`,
      {
        method: 'GET',
        headers: body ? { 'content-type': 'text/plain', 'content-length': Buffer.byteLength(body) } : {},
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode!));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
  const { requests } = await (await fetch(`${server.url}/__mockvideo/requests`)).json();
  return { status, entry: requests[0] as { findings: Array<{ parameter: string; rule: string }> } };
}

const NOW = () => Math.floor(Date.now() / 1000);

describe('contract findings of client requests, through the real server', () => {
  it.each(['ad_config', 'meta/cp', 'meta/setting', 'meta/plugin', 'localplay/diversion', 'localplay/recomm'] as const)(
    'a correct %s request has none',
    async (op) => {
      const { status, entry } = await journaled(clientPath(op));
      expect(status).toBe(200);
      expect(entry.findings).toEqual([]);
    },
  );

  it.each<[string, OperationName, (p: string) => string, string, string]>([
    ['missing-parameter', 'meta/cp', (p) => p.replace(/&_anoyid=[^&]+/, ''), '_anoyid', 'missing-parameter'],
    ['_sdevid format', 'meta/cp', (p) => p.replace(/_sdevid=[0-9a-f]+/, '_sdevid=XYZ'), '_sdevid', 'format'],
    ['_locale format', 'meta/cp', (p) => p.replace('_locale=en_IN', '_locale=english'), '_locale', 'format'],
    ['_region format', 'meta/cp', (p) => p.replace('_region=IN', '_region=In'), '_region', 'format'],
    ['_isoemui format', 'meta/cp', (p) => p.replace('_isoemui=1', '_isoemui=true'), '_isoemui', 'format'],
    ['_anoyid format', 'meta/cp', (p) => p.replace(/_anoyid=[^&]+/, '_anoyid=not-a-uuid'), '_anoyid', 'format'],
    ['_nonce format', 'meta/cp', (p) => p.replace(/_nonce=[^&]+/, '_nonce=1.5'), '_nonce', 'format'],
    ['_ts skew', 'meta/cp', (p) => p.replace(/_ts=\d+/, `_ts=${NOW() - 10 * 86_400}`), '_ts', 'ts-skew'],
    ['_ts in milliseconds', 'meta/cp', (p) => p.replace(/_ts=\d+/, `_ts=${NOW()}000`), '_ts', 'ts-skew'],
    ['_ver format', 'meta/cp', (p) => p.replace(/_ver=[^&]+/, '_ver=1.0'), '_ver', 'format'],
    ['_plyver format', 'meta/cp', (p) => p.replace('_plyver=20240611', '_plyver=v2024'), '_plyver', 'format'],
    ['_diordna format', 'meta/cp', (p) => p.replace(/_diordna=[^&]+/, '_diordna=0'), '_diordna', 'format'],
    ['_appver format', 'meta/cp', (p) => p.replace('_appver=2024062790', '_appver=x'), '_appver', 'format'],
    ['_andver format', 'meta/cp', (p) => p.replace('_andver=33', '_andver=T'), '_andver', 'format'],
    ['repeated-parameter', 'meta/cp', (p) => `${p}&_nonce=5`, '_nonce', 'repeated-parameter'],
    ['ref-order on the diversion', 'localplay/diversion', (p) => p.replace('?ref=&', '?'), 'ref', 'ref-order'],
    ['ref-order on the recommendations', 'localplay/recomm', (p) => p.replace('?ref=&', '?'), 'ref', 'ref-order'],
    [
      'is_from_gallery format',
      'localplay/diversion',
      (p) => p.replace('is_from_gallery=true', 'is_from_gallery=yes'),
      'is_from_gallery',
      'format',
    ],
  ])('%s is found, and the request is still answered', async (_what, op, edit, parameter, rule) => {
    const { status, entry } = await journaled(edit(clientPath(op)));
    expect(status).toBe(200);
    expect(entry.findings.map((f) => [f.parameter, f.rule])).toEqual([[parameter, rule]]);
  });

  it('body-on-get is found', async () => {
    const { entry } = await journaled(clientPath('ad_config'), 'unexpected');
    expect(entry.findings.map((f) => f.rule)).toEqual(['body-on-get']);
  });
});

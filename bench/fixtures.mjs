// Fixtures of `npm run bench`, generated into os.tmpdir(): realistic client requests and recording
// folders of any size.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OPERATIONS, OPERATION_NAMES, SERVICE_TOKEN_PLACEHOLDER } from '../dist/contract/index.js';
import { DEFAULT_POLICY, REDACTED, formatRecording, matchKey } from '../dist/normalise/index.js';
import { keyHash, operationFolder } from '../dist/storage/recording-names.js';

/** The 27 common parameters as the client sends them (test/support/client-common-query.json, made-up
 * values), with `_ts` the time of the bench run. */
export const CLIENT_COMMON_QUERY = JSON.parse(
  readFileSync(new URL('../test/support/client-common-query.json', import.meta.url), 'utf8'),
).map(([k, v]) => (k === '_ts' ? [k, String(Math.floor(Date.now() / 1000))] : [k, v]));

/** The query pairs of one operation as the client sends them; `uspace` replaces `_uspace` (recordings differ by it). */
export function clientPairs(operation, uspace = '0') {
  const pairs = [];
  for (const p of OPERATIONS[operation].extraParameters) {
    if (p.name === 'ref') pairs.push(['ref', '']);
    if (p.name === 'is_from_gallery') pairs.push(['is_from_gallery', 'true']);
  }
  for (const [k, v] of CLIENT_COMMON_QUERY) pairs.push([k, k === '_uspace' ? uspace : v]);
  return pairs;
}

/** Path and query of one operation as the client sends it. */
export function clientPath(operation, uspace = '0', prefix = '') {
  return `${prefix}${OPERATIONS[operation].path}?${clientPairs(operation, uspace)
    .map(([k, v]) => `${k}=${v}`)
    .join('&')}`;
}

export { DEFAULT_POLICY, OPERATION_NAMES };

/** A new temporary folder under os.tmpdir(). */
export function tempDir(prefix) {
  return mkdtempSync(join(tmpdir(), prefix));
}

/**
 * Writes a recording folder of `count` exchanges, spread over the six operations, that differ by
 * `_uspace` (= the exchange number, so every one has its own match key). `bodies` maps an operation to
 * its body text. Plain writes (no fsync): this is a fixture, not `mockvideo record`.
 */
export function writeRecordings(count, bodies) {
  const dir = tempDir('mockvideo-bench-recordings-');
  for (const operation of OPERATION_NAMES) mkdirSync(join(dir, operationFolder(operation)));
  const recordedAt = new Date().toISOString();
  for (let i = 0; i < count; i++) {
    const operation = OPERATION_NAMES[i % OPERATION_NAMES.length];
    const pairs = clientPairs(operation, String(i));
    const key = matchKey('GET', operation, pairs, DEFAULT_POLICY);
    const query = pairs.map(([k, v]) => [
      k,
      DEFAULT_POLICY.secret.includes(k)
        ? SERVICE_TOKEN_PLACEHOLDER
        : DEFAULT_POLICY.identity.includes(k)
          ? REDACTED
          : v,
    ]);
    const recording = {
      operation,
      matchKey: key,
      recordedAt,
      request: { method: 'GET', path: OPERATIONS[operation].path, query, headers: { 'user-agent': 'okhttp/4.12.0' } },
      response: {
        status: 200,
        headers: { 'content-type': 'application/json; charset=utf-8' },
        body: bodies[operation],
      },
    };
    writeFileSync(join(dir, operationFolder(operation), `${keyHash(key)}-000.json`), formatRecording(recording));
  }
  return { dir };
}

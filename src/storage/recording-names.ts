import { readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { OPERATION_NAMES, type OperationName } from '../contract/core.js';

/** A recording file name: `<first 12 hex of sha256(matchKey)>-<NNN>.json`, NNN the recorded order under that key. */
export const RECORDING_FILE = /^([0-9a-f]{12})-(\d{3,})\.json$/;

/** The folder of an operation inside a recording folder: `meta/cp` → `meta-cp`. */
export function operationFolder(operation: OperationName): string {
  return operation.replace(/\//g, '-');
}

/** node:crypto's `createHash`, loaded on the first call of {@link keyHash}: importing node:crypto costs ~4 ms of a start, and replay only reads recordings. */
let createHash: (typeof import('node:crypto'))['createHash'] | undefined;

/** The first 12 hex characters of the SHA-256 of a match key. */
export function keyHash(matchKey: string): string {
  createHash ??= (createRequire(import.meta.url)('node:crypto') as typeof import('node:crypto')).createHash;
  return createHash('sha256').update(matchKey).digest('hex').slice(0, 12);
}

/** True when `dir` looks like a recording folder: it holds an operation folder or a recording file. */
export function isRecordingDir(dir: string): boolean {
  try {
    if (!statSync(dir).isDirectory()) return false;
    const names = readdirSync(dir);
    return (
      names.some((n) => RECORDING_FILE.test(n)) || OPERATION_NAMES.some((op) => names.includes(operationFolder(op)))
    );
  } catch {
    return false;
  }
}

import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MockvideoError } from '../../dist/errors.js';
import { loadCheckedRecordingIndex } from '../../dist/storage/load-recordings.js';
import { RecordingFileSource } from '../../dist/storage/recording-file-source.js';
import { OPERATION_NAMES, type OperationName } from '../../src/contract/index.js';
import {
  DEFAULT_POLICY,
  recordedBodyBytes,
  formatRecording,
  matchKey,
  queryMultimap,
  queryValues,
  splitQuery,
  type Recording,
} from '../../src/normalise/index.js';
import { keyHash, operationFolder } from '../../src/storage/recording-names.js';
import { runCli, startCli } from '../support/cli.js';
import { clientPath } from '../support/client.js';
import { getBytes, recordSession, recordingFiles, removeTempDirs, tempDir } from '../support/recordings.js';
import { OTHER_SESSION, clientPathWith } from '../support/sessions.js';
import { startUpstream } from '../support/upstream.js';

// A large folder, as `mockvideo replay` loads it (dist/'s modules): 6 operations × 400 recordings that differ in `_uspace`, copied from a recorded session.

const PER_OPERATION = 400;
let small: string;
let large: string;

/** The name of the recording of `operation` with `_uspace=uspace` in the large folder. */
const names = new Map<string, string>();

beforeAll(async () => {
  const upstream = await startUpstream();
  ({ dir: small } = await recordSession(
    upstream.url,
    OPERATION_NAMES.map((op) => clientPath(op)),
  ));
  await upstream.close();
  large = tempDir();
  for (const { text } of recordingFiles(small)) {
    const recording = JSON.parse(text) as Recording;
    mkdirSync(join(large, operationFolder(recording.operation)), { recursive: true });
    for (let uspace = 0; uspace < PER_OPERATION; uspace++) {
      const query = recording.request.query.map(
        ([k, v]) => [k, k === '_uspace' ? String(uspace) : v] as [string, string],
      );
      const key = matchKey('GET', recording.operation, query, DEFAULT_POLICY);
      const file = `${operationFolder(recording.operation)}/${keyHash(key)}-000.json`;
      writeFileSync(
        join(large, file),
        formatRecording({ ...recording, matchKey: key, request: { ...recording.request, query } }),
      );
      names.set(`${recording.operation} ${uspace}`, file);
    }
  }
}, 60_000);

afterAll(() => removeTempDirs());

const pathOf = (operation: OperationName, uspace: number) =>
  clientPathWith(operation, { ...OTHER_SESSION, _uspace: String(uspace) });

describe('replay of a large folder', () => {
  it('loadCheckedRecordingIndex indexes every recording: exact matches, nearest keys and cached responses', async () => {
    const progress: number[][] = [];
    const { index, problems } = await loadCheckedRecordingIndex(large, DEFAULT_POLICY, {
      onProgress: (done, total) => progress.push([done, total]),
    });
    expect(problems).toEqual([]);
    expect(index.size).toBe(OPERATION_NAMES.length * PER_OPERATION);
    // Each recording under its own match key.
    for (const [at, name] of names) {
      const [operation, uspace] = at.split(' ') as [OperationName, string];
      const query = queryValues(pathOf(operation, Number(uspace)).split('?')[1]!);
      expect(index.find('GET', operation, query)?.map((r) => r.name)).toEqual([name]);
    }
    expect(progress.at(-1)).toEqual([2400, 2400]);
    for (const operation of OPERATION_NAMES) {
      const unknownPairs = splitQuery(pathOf(operation, 100_000).split('?')[1]!);
      expect(index.find('GET', operation, queryValues(unknownPairs))).toBeUndefined();
      const unknown = queryMultimap(unknownPairs, DEFAULT_POLICY);
      const nearest = index.closest(operation, unknown, 5);
      expect(nearest.map(({ count }) => count)).toEqual([1, 1, 1, 1, 1]);
      // Ties in recorded order (file name order): the first of the operation.
      expect(nearest[0]!.entry.name).toBe(
        [...index.names()].find((name) => name.startsWith(`${operationFolder(operation)}/`)),
      );
    }
    // The folder's responses fit the 8 MiB cache.
    const source = index.source;
    expect(source).toBeInstanceOf(RecordingFileSource);
    expect((source as RecordingFileSource).cachedBytes).toBeGreaterThan(0);
    const [first] = index.find('GET', 'meta/cp', queryValues(pathOf('meta/cp', 7).split('?')[1]!))!;
    const served = await index.response(first!);
    const stored = JSON.parse(readFileSync(join(large, first!.name), 'utf8')) as Recording;
    expect(Buffer.from(served.body).equals(Buffer.from(recordedBodyBytes(stored.response)))).toBe(true);
  });

  it('reports the problems of broken files, and a missing folder as a usage error', async () => {
    const broken = tempDir();
    mkdirSync(join(broken, 'meta-cp'));
    writeFileSync(join(broken, 'meta-cp', '0123456789ab-000.json'), '{"operation": "meta/cp"');
    writeFileSync(join(broken, 'meta-cp', 'notes.json'), '{}');
    const { problems } = await loadCheckedRecordingIndex(broken, DEFAULT_POLICY);
    expect(problems.map((p) => p.file)).toEqual(['meta-cp/0123456789ab-000.json', 'meta-cp/notes.json']);
    const missing = join(broken, 'nowhere');
    const refused = await loadCheckedRecordingIndex(missing, DEFAULT_POLICY).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(MockvideoError);
    expect((refused as MockvideoError).code).toBe('MV_USAGE');
    expect((refused as MockvideoError).message).toBe(
      `[mockvideo] Cannot read the recording folder ${missing}: ENOENT. Record one with "mockvideo record --upstream URL --out ${missing}".`,
    );
  });

  it('the CLI serves every recording by exact match, a new value by nearest match, and a near miss in strict mode', async () => {
    for (const match of ['nearest', 'strict']) {
      const replay = await startCli(['replay', large, '--port', '0', '--match', match, '--no-watch', '--quiet']);
      try {
        expect(replay.stdout()).toContain(`(${OPERATION_NAMES.length * PER_OPERATION} recordings, match ${match})`);
        for (const operation of OPERATION_NAMES) {
          for (const uspace of [0, 233, PER_OPERATION - 1]) {
            const { status, headers } = await getBytes(`${replay.url}${pathOf(operation, uspace)}`);
            expect(status, `${operation} ${uspace}`).toBe(200);
            expect(headers.get('x-mockvideo-match')).toBe('exact');
            expect(headers.get('x-mockvideo-recording')).toBe(names.get(`${operation} ${uspace}`));
          }
        }
        const { status, headers, body } = await getBytes(`${replay.url}${pathOf('meta/cp', 100_000)}`);
        if (match === 'nearest') {
          expect(status).toBe(200);
          expect(headers.get('x-mockvideo-match')).toBe('nearest');
          expect(headers.get('x-mockvideo-differences')).toContain('_uspace');
        } else {
          expect(status).toBe(404);
          const report = JSON.parse(body.toString()) as {
            nearMisses: Array<{ recording: string; differences: Array<{ parameter: string }> }>;
          };
          expect(report.nearMisses[0]!.differences.map((d) => d.parameter)).toEqual(['_uspace']);
        }
      } finally {
        await replay.stop();
      }
    }
  }, 60_000);

  it('the CLI reloads a large folder that changes, and serves the last change', async () => {
    const replay = await startCli(['replay', large, '--port', '0', '--match', 'strict']);
    const file = join(large, names.get('meta/cp 5')!);
    const original = readFileSync(file, 'utf8');
    try {
      const recording = JSON.parse(original) as Recording;
      // Changes 150 ms apart: each may come while the reload before still runs.
      for (let change = 1; change <= 4; change++) {
        writeFileSync(
          file,
          formatRecording({ ...recording, response: { ...recording.response, body: `{"change":${change}}` } }),
        );
        await new Promise((resolve) => setTimeout(resolve, 150));
      }
      const deadline = Date.now() + 10_000;
      let body = '';
      while (body !== '{"change":4}' && Date.now() < deadline) {
        body = (await getBytes(`${replay.url}${pathOf('meta/cp', 5)}`)).body.toString();
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(body).toBe('{"change":4}');
      expect(replay.stdout()).toMatch(/recordings reloaded from .*: 2400 recordings live/);
      expect(replay.stderr()).toBe('');
    } finally {
      writeFileSync(file, original);
      await replay.stop();
    }
  }, 60_000);

  it("the CLI refuses a large folder with a broken file, naming it in the schema's words", async () => {
    const file = join(large, 'meta-cp', 'ffffffffffff-000.json');
    writeFileSync(
      file,
      JSON.stringify({
        ...JSON.parse(readFileSync(join(large, names.get('meta/cp 0')!), 'utf8')),
        operation: 'meta/nope',
      }),
    );
    try {
      const { code, stderr } = await runCli(['replay', large, '--port', '0', '--no-watch'], { timeoutMs: 30_000 });
      expect(code).not.toBe(0);
      expect(stderr).toContain('meta-cp/ffffffffffff-000.json');
      expect(stderr).toContain('operation');
      expect(stderr).not.toMatch(/\n\s+at /);
    } finally {
      rmSync(file);
    }
  }, 60_000);
});

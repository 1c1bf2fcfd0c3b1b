import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATION_NAMES } from '../../src/contract/index.js';
import { DEFAULT_POLICY } from '../../src/normalise/index.js';
import { startReplayServer, type RunningReplay } from '../../src/server/modes/replay.js';
import { clientPath } from '../support/client.js';
import { canMakeFifo, makeFifo } from '../support/fifo.js';
import { getBytes, recordSession, recordingFiles, removeTempDirs } from '../support/recordings.js';
import { OTHER_SESSION, clientPathWith } from '../support/sessions.js';
import { startUpstream } from '../support/upstream.js';

// `mockvideo replay` keeps only what matching needs in memory and reads each response from its
// file when served (beyond a cache). With the cache off, every answer below comes from the file.

let dir: string;
let recorded: Buffer[];

beforeAll(async () => {
  const upstream = await startUpstream();
  ({ dir, bodies: recorded } = await recordSession(
    upstream.url,
    OPERATION_NAMES.map((op) => clientPath(op)),
  ));
  await upstream.close();
});

afterAll(() => removeTempDirs());

const start = (cacheBytes: number) =>
  startReplayServer({ dir, match: 'strict', policy: DEFAULT_POLICY, port: 0, host: '127.0.0.1', cacheBytes });

describe('replay reads responses from the recording files when served', () => {
  let replay: RunningReplay;
  beforeAll(async () => {
    replay = await start(0);
  });
  afterAll(async () => {
    await replay.stop();
  });

  it('answers byte-identical bodies and the recorded headers, twice in a row', async () => {
    for (const [i, op] of OPERATION_NAMES.entries()) {
      for (let round = 0; round < 2; round++) {
        const { status, headers, body } = await getBytes(`${replay.running.url}${clientPathWith(op, OTHER_SESSION)}`);
        expect(status).toBe(200);
        expect(headers.get('x-mockvideo-match')).toBe('exact');
        expect(headers.get('content-type')).toBe('application/json; charset=utf-8');
        expect(body.equals(recorded[i]!), op).toBe(true);
      }
    }
  });

  it('a recording removed after start answers 500 JSON naming the file; the server keeps answering the others', async () => {
    const file = recordingFiles(dir).find((f) => f.name.startsWith('meta-cp/'))!;
    rmSync(join(dir, file.name));
    const gone = await getBytes(`${replay.running.url}${clientPathWith('meta/cp', OTHER_SESSION)}`);
    expect(gone.status).toBe(500);
    const answer = JSON.parse(gone.body.toString()) as { error: string; recording: string };
    expect(answer.recording).toBe(file.name);
    expect(answer.error).toContain(`Cannot serve recording ${file.name}: its file is gone from ${dir} (ENOENT)`);
    expect((await getBytes(`${replay.running.url}${clientPathWith('meta/plugin', OTHER_SESSION)}`)).status).toBe(200);
    writeFileSync(join(dir, file.name), file.text);
  });

  it('a recording broken after start answers 500 naming the file and the problem', async () => {
    const file = recordingFiles(dir).find((f) => f.name.startsWith('meta-setting/'))!;
    writeFileSync(join(dir, file.name), '{ broken');
    const broken = await getBytes(`${replay.running.url}${clientPathWith('meta/setting', OTHER_SESSION)}`);
    expect(broken.status).toBe(500);
    expect(JSON.parse(broken.body.toString()).error).toContain(
      `Cannot serve recording ${file.name}: its file is now invalid JSON (line 1, column`,
    );
    writeFileSync(join(dir, file.name), file.text);
  });

  it.skipIf(!canMakeFifo)(
    'a recording made a FIFO after start answers 500 at once, never waiting on it (issue 39 L7)',
    async () => {
      const file = recordingFiles(dir).find((f) => f.name.startsWith('ad_config/'))!;
      rmSync(join(dir, file.name));
      makeFifo(join(dir, file.name));
      try {
        const fifo = await getBytes(`${replay.running.url}${clientPathWith('ad_config', OTHER_SESSION)}`, {
          signal: AbortSignal.timeout(10_000),
        });
        expect(fifo.status).toBe(500);
        expect(JSON.parse(fifo.body.toString()).error).toContain(
          `Cannot serve recording ${file.name}: its file is not a regular file (a FIFO)`,
        );
      } finally {
        rmSync(join(dir, file.name));
        writeFileSync(join(dir, file.name), file.text);
      }
    },
  );
});

describe('the response cache', () => {
  it('keeps a small folder in memory: a file removed after start is still served from memory', async () => {
    const replay = await start(32 * 1024 * 1024);
    try {
      const file = recordingFiles(dir).find((f) => f.name.startsWith('localplay-recomm/'))!;
      rmSync(join(dir, file.name));
      try {
        const { status, body } = await getBytes(
          `${replay.running.url}${clientPathWith('localplay/recomm', OTHER_SESSION)}`,
        );
        expect(status).toBe(200);
        expect(body.equals(recorded[OPERATION_NAMES.indexOf('localplay/recomm')]!)).toBe(true);
      } finally {
        writeFileSync(join(dir, file.name), file.text);
      }
    } finally {
      await replay.stop();
    }
  });
});

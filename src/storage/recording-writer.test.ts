import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_POLICY, matchKey, type Recording } from '../normalise/index.js';
import { parseRecording } from '../normalise/recording-schema.js';
import { RecordingWriteError } from './recording-write-error.js';
import { RecordingWriter } from './recording-writer.js';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'mockvideo-writer-'));
  dirs.push(dir);
  return dir;
};

/** A recording of `operation` whose body says `n`; `region` picks its match key. */
function recording(operation: 'meta/cp' | 'meta/plugin', n: number, region = 'IN'): Recording {
  const query = [['_region', region]] as const;
  return {
    operation,
    matchKey: matchKey('GET', operation, query, DEFAULT_POLICY),
    recordedAt: '2026-11-23T00:00:00.000Z',
    request: { method: 'GET', path: `/api/g1/${operation}`, query: [...query].map(([k, v]) => [k, v]), headers: {} },
    response: { status: 200, headers: { 'content-type': 'application/json; charset=utf-8' }, body: `{"n":${n}}` },
  };
}

/** The recording files of `folder` in `dir`, sorted (temporary files included: none may be left). */
const filesOf = (dir: string, folder: string) => readdirSync(join(dir, folder)).sort();

describe('RecordingWriter.queue', () => {
  it('names each recording at once, in the order handed over, and writes them all, whole, in that order', async () => {
    const dir = tempDir();
    const writer = new RecordingWriter(dir);
    const queued = Array.from({ length: 30 }, (_, n) => writer.queue(recording('meta/cp', n)));
    // Named before anything is written: the next number of the key, in order.
    expect(queued.map((q) => q.name.slice(-8))).toEqual(
      Array.from({ length: 30 }, (_, n) => `${String(n).padStart(3, '0')}.json`),
    );
    expect(readdirSync(dir)).toEqual([]);
    // Written one after the other: each resolves after the one before it.
    const order: number[] = [];
    await Promise.all(queued.map((q, n) => q.written.then(() => order.push(n))));
    expect(order).toEqual(Array.from({ length: 30 }, (_, n) => n));
    expect(filesOf(dir, 'meta-cp')).toEqual(queued.map((q) => q.name.slice('meta-cp/'.length)));
    for (const [n, q] of queued.entries()) {
      const parsed = parseRecording(JSON.parse(readFileSync(join(dir, q.name), 'utf8')), q.name);
      expect(parsed.ok && parsed.recording.response.body).toBe(`{"n":${n}}`);
    }
    expect(await writer.flush()).toEqual([]);
  });

  it('flush() waits for the recordings still queued', async () => {
    const dir = tempDir();
    const writer = new RecordingWriter(dir);
    const names = [1, 2, 3].map((n) => writer.queue(recording('meta/plugin', n, `R${n}`)).name);
    expect(await writer.flush()).toEqual([]);
    expect(filesOf(dir, 'meta-plugin')).toEqual(names.map((name) => name.slice('meta-plugin/'.length)).sort());
  });

  it('a write that fails rejects its own `written` with the code; the ones after it are written', async () => {
    const dir = tempDir();
    const writer = new RecordingWriter(dir);
    // A file where the folder of meta/cp must go.
    writeFileSync(join(dir, 'meta-cp'), 'not a folder');
    const failed = writer.queue(recording('meta/cp', 1));
    const fine = writer.queue(recording('meta/plugin', 2));
    await expect(failed.written).rejects.toBeInstanceOf(RecordingWriteError);
    await expect(failed.written).rejects.toMatchObject({ code: 'ENOTDIR', file: failed.name });
    await fine.written;
    expect(filesOf(dir, 'meta-plugin')).toEqual([fine.name.slice('meta-plugin/'.length)]);
    // write() is queue() and a wait: it gives the name, or throws the same error.
    await expect(writer.write(recording('meta/cp', 3))).rejects.toMatchObject({ code: 'ENOTDIR' });
    expect(await writer.write(recording('meta/plugin', 4))).toBe(fine.name.replace('-000.json', '-001.json'));
  });
});

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_POLICY, formatRecording, matchKey, type Recording } from '../normalise/index.js';
import { RecordingFileSource } from './recording-file-source.js';

const dir = mkdtempSync(join(tmpdir(), 'mockvideo-source-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Writes a recording of meta/cp whose body is `body`; gives its name in the folder. */
function write(name: string, body: string): string {
  const query = [['_region', name]] as const;
  const recording: Recording = {
    operation: 'meta/cp',
    matchKey: matchKey('GET', 'meta/cp', query, DEFAULT_POLICY),
    recordedAt: '2026-11-23T00:00:00.000Z',
    request: { method: 'GET', path: '/api/g1/meta/cp', query: [...query].map(([k, v]) => [k, v]), headers: {} },
    response: { status: 200, headers: { 'content-type': 'application/json; charset=utf-8' }, body },
  };
  mkdirSync(join(dir, 'meta-cp'), { recursive: true });
  writeFileSync(join(dir, 'meta-cp', `${name}.json`), formatRecording(recording));
  return `meta-cp/${name}.json`;
}

/** A body of about 1 KB made of `c`. */
const body = (c: string) => `{"data":"${c.repeat(1000)}","msg":"OK","result":1}`;
/** Room in the cache for two of those responses, not three. */
const TWO_RESPONSES = 2 * 1300;

const text = async (source: RecordingFileSource, name: string) =>
  Buffer.from((await source.response(name)).body).toString('utf8');

describe('RecordingFileSource', () => {
  it('lets go of the least recently served response first, within its bytes', async () => {
    const [a, b, c] = [write('a', body('a')), write('b', body('b')), write('c', body('c'))];
    const source = new RecordingFileSource(dir, TWO_RESPONSES);
    await text(source, a);
    await text(source, b);
    await text(source, a); // a hit: a is used again, b is not
    await text(source, c); // makes room: b goes, a stays
    rmSync(join(dir, a));
    rmSync(join(dir, b));
    expect(await text(source, a)).toBe(body('a'));
    expect(await text(source, c)).toBe(body('c'));
    await expect(source.response(b)).rejects.toThrow(/meta-cp\/b\.json.*gone/);
    expect(source.cachedBytes).toBeLessThanOrEqual(TWO_RESPONSES);
  });

  it('keeps the response just read even when every other one was served since', async () => {
    const [d, e, f] = [write('d', body('d')), write('e', body('e')), write('f', body('f'))];
    const source = new RecordingFileSource(dir, TWO_RESPONSES);
    await text(source, d);
    await text(source, e);
    await text(source, d);
    await text(source, e);
    await text(source, f);
    rmSync(join(dir, f));
    expect(await text(source, f)).toBe(body('f'));
  });
});

describe('RecordingFileSource.keep (while the folder is read)', () => {
  const recording = (text: string) => ({
    status: 200,
    headers: { 'content-type': 'application/json; charset=utf-8' },
    body: text,
  });

  it('holds a folder that fits from memory: a file changed later is still served as it was read', async () => {
    const [g, h] = [write('g', body('g')), write('h', body('h'))];
    const source = new RecordingFileSource(dir, TWO_RESPONSES);
    source.keep(g, recording(body('g')));
    source.keep(h, recording(body('h')));
    write('g', body('x'));
    rmSync(join(dir, h));
    expect(source.response(g)).not.toBeInstanceOf(Promise);
    expect(await text(source, g)).toBe(body('g'));
    expect(await text(source, h)).toBe(body('h'));
  });

  it('keeps nothing of a folder that does not fit: every answer is read from its file, then the served ones are kept', async () => {
    const [i, j, k] = [write('i', body('i')), write('j', body('j')), write('k', body('k'))];
    const source = new RecordingFileSource(dir, TWO_RESPONSES);
    for (const name of [i, j, k]) source.keep(name, recording(body(name[8]!)));
    expect(source.cachedBytes).toBe(0);
    write('i', body('y'));
    expect(source.response(i)).toBeInstanceOf(Promise);
    expect(await text(source, i)).toBe(body('y'));
    rmSync(join(dir, i));
    expect(await text(source, i)).toBe(body('y'));
    expect(await text(source, j)).toBe(body('j'));
  });
});

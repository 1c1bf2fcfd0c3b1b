import { spawnSync } from 'node:child_process';
import {
  closeSync,
  existsSync,
  openSync,
  readdirSync,
  rmSync,
  statSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { canMountTmpfs, startCli } from '../support/cli.js';
import { clientPath } from '../support/client.js';
import { eventually, getBytes, tempDir } from '../support/recordings.js';
import { useUpstream } from '../support/upstream.js';

const upstream = useUpstream();

const tmpfsWorks = canMountTmpfs();
if (!tmpfsWorks)
  console.warn(
    '[write-errors] Skipping the full-disk test: this machine does not let an unprivileged process mount a tmpfs in its own user namespace (unshare -Urm).',
  );

/** Every file under `dir` (relative paths), except the lock and the recorded origins; `[]` when `dir` is gone or a file. */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .filter((name) => !name.startsWith('.mockvideo.lock') && name !== '.mockvideo-origins')
    .sort();
}

describe('a write error while recording', () => {
  it('a file where the operation folder was (ENOTDIR): the client gets the upstream answer, the loss is loud and counted, the session exits 1', async () => {
    const out = tempDir();
    const recorder = await startCli(['record', '--upstream', upstream.url, '--out', out, '--port', '0']);
    let code: number | null;
    try {
      expect((await getBytes(`${recorder.url}${clientPath('meta/cp')}`)).status).toBe(200);
      // The recording is written after the client is answered (a finished file, not the temporary one).
      await eventually(() => filesUnder(out).join('\n'), /^meta-cp\/[0-9a-f]{12}-000\.json$/m);
      expect(filesUnder(out)).toHaveLength(1);
      // The operation folder is replaced by a regular file: no write can go in there, root or not.
      rmSync(join(out, 'meta-cp'), { recursive: true });
      writeFileSync(join(out, 'meta-cp'), 'not a folder');

      const answer = await getBytes(`${recorder.url}${clientPath('meta/cp')}`);
      expect(answer.status).toBe(200);
      expect(answer.body.equals(upstream.sent.at(-1)!)).toBe(true);
      // Other operations keep recording.
      expect((await getBytes(`${recorder.url}${clientPath('meta/setting')}`)).status).toBe(200);
      // The journal keeps the exchange as answered, and nothing in it claims a recording.
      const { requests } = await (await fetch(`${recorder.url}/__mockvideo/requests?operation=meta/cp`)).json();
      expect(requests.at(-1)).toMatchObject({ status: 200, match: null });
    } finally {
      code = await recorder.stop('SIGINT');
    }
    // An incomplete recording: exit 1.
    expect(code).toBe(1);
    expect(recorder.stderr()).toMatch(
      /^\[mockvideo\] GET meta\/cp was answered \(200 from the upstream\) but NOT recorded: write error ENOTDIR\. Failed to write the recording meta-cp\/[0-9a-f]{12}-001\.json into /m,
    );
    expect(recorder.stdout()).toMatch(/GET meta\/cp {2}200 {2}NOT RECORDED: ENOTDIR/);
    expect(recorder.stdout()).toMatch(
      /Recorded 2 exchanges into .*: 3 seen, 0 skipped \(not recorded\), 0 failed \(.*\), 1 lost \(write errors\)/,
    );
    expect(recorder.stderr()).toMatch(
      /^\[mockvideo\] 1 exchange was answered but NOT recorded because of write errors/m,
    );
    expect(filesUnder(out)).toEqual(['meta-cp', expect.stringMatching(/^meta-setting\/[0-9a-f]{12}-000\.json$/)]);
  });

  it.skipIf(!tmpfsWorks)(
    'a full disk (ENOSPC, a real tmpfs): the client gets the upstream answer, no partial or temporary file is left, recording resumes once there is room',
    async () => {
      const out = tempDir();
      const recorder = await startCli(['record', '--upstream', upstream.url, '--out', out, '--port', '0', '--quiet'], {
        sandbox: { tmpfs: { dir: out, size: '64k' } },
      });
      // The recorder's own view of --out: the tmpfs is mounted in its mount namespace only.
      const seen = `/proc/${recorder.child.pid}/root${out}`;
      let code: number | null;
      try {
        expect((await getBytes(`${recorder.url}${clientPath('meta/cp')}`)).status).toBe(200);
        await eventually(() => filesUnder(seen).join('\n'), /^meta-cp\/[0-9a-f]{12}-000\.json$/m);
        expect(filesUnder(seen)).toHaveLength(1);
        // Fill the disk.
        const filler = join(seen, 'filler');
        const fd = openSync(filler, 'w');
        try {
          for (;;) writeSync(fd, Buffer.alloc(4096));
        } catch (error) {
          expect((error as NodeJS.ErrnoException).code).toBe('ENOSPC');
        } finally {
          closeSync(fd);
        }
        for (const operation of ['meta/setting', 'localplay/recomm'] as const) {
          const answer = await getBytes(`${recorder.url}${clientPath(operation)}`);
          expect(answer.status).toBe(200);
          expect(answer.body.equals(upstream.sent.at(-1)!)).toBe(true);
        }
        // Both writes failed (reported after the answers)...
        await eventually(recorder.stderr, /(NOT recorded: write error ENOSPC[^]*){2}/);
        // ...and left neither a recording nor its temporary file (`<name>.json.<pid>.<n>.tmp`).
        expect(filesUnder(seen)).toEqual(['filler', expect.stringMatching(/^meta-cp\/[0-9a-f]{12}-000\.json$/)]);
        // Room again: recording goes on.
        unlinkSync(filler);
        expect((await getBytes(`${recorder.url}${clientPath('meta/plugin')}`)).status).toBe(200);
        await eventually(() => filesUnder(seen).join('\n'), /^meta-plugin\/[0-9a-f]{12}-000\.json$/m);
        expect(filesUnder(seen)).toEqual([
          expect.stringMatching(/^meta-cp\//),
          expect.stringMatching(/^meta-plugin\//),
        ]);
      } finally {
        code = await recorder.stop('SIGINT');
      }
      expect(code).toBe(1);
      // Loud even with --quiet.
      expect(
        recorder
          .stderr()
          .match(
            /^\[mockvideo\] GET (meta\/setting|localplay\/recomm) was answered \(200 from the upstream\) but NOT recorded: write error ENOSPC\./gm,
          ),
      ).toHaveLength(2);
      expect(recorder.stdout()).toMatch(/Recorded 2 exchanges into .*: 4 seen, .*, 2 lost \(write errors\)/);
    },
  );

  it('the recording folder removed while recording: made again, the lost lock reported, the session ends with exit 0', async () => {
    const out = tempDir();
    const recorder = await startCli(['record', '--upstream', upstream.url, '--out', out, '--port', '0']);
    let code: number | null;
    try {
      expect((await getBytes(`${recorder.url}${clientPath('meta/cp')}`)).status).toBe(200);
      await eventually(() => filesUnder(out).join('\n'), /^meta-cp\/[0-9a-f]{12}-000\.json$/m);
      rmSync(out, { recursive: true });
      // The lock is refreshed every 2 s: wait until the recorder noticed it is gone.
      const deadline = Date.now() + 8_000;
      while (!recorder.stderr().includes('Lost the lock') && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 100));
      expect(recorder.stderr()).toMatch(
        /^\[mockvideo\] Lost the lock on .*: was the folder removed\? Recording goes on/m,
      );
      expect(recorder.child.exitCode).toBeNull();
      expect((await getBytes(`${recorder.url}${clientPath('meta/plugin')}`)).status).toBe(200);
    } finally {
      code = await recorder.stop('SIGINT');
    }
    expect(code).toBe(0);
    expect(recorder.stdout()).toMatch(/Recorded 2 exchanges .* 0 lost \(write errors\)/);
    expect(filesUnder(out)).toEqual([expect.stringMatching(/^meta-plugin\/[0-9a-f]{12}-000\.json$/)]);
  });

  it('replay --record-missing: a miss that cannot be written is answered, not claimed as recorded, and reported', async () => {
    const dir = tempDir();
    const replay = await startCli([
      'replay',
      dir,
      '--record-missing',
      '--upstream',
      upstream.url,
      '--port',
      '0',
      '--no-watch',
    ]);
    try {
      // The operation folder of the miss is a regular file.
      writeFileSync(join(dir, 'meta-plugin'), 'not a folder');
      const answer = await getBytes(`${replay.url}${clientPath('meta/plugin')}`);
      expect(answer.status).toBe(200);
      expect(answer.body.equals(upstream.sent.at(-1)!)).toBe(true);
      expect(answer.headers.get('x-mockvideo-match')).toBeNull();
      const { requests } = await (await fetch(`${replay.url}/__mockvideo/requests`)).json();
      expect(requests.at(-1)).toMatchObject({ operation: 'meta/plugin', status: 200, match: null });
      // Still a miss: nothing was recorded, so the next identical request goes upstream again.
      const before = upstream.received.length;
      expect((await getBytes(`${replay.url}${clientPath('meta/plugin')}`)).status).toBe(200);
      expect(upstream.received.length - before).toBe(1);
    } finally {
      await replay.stop('SIGINT');
    }
    expect(replay.stderr()).toMatch(
      /^\[mockvideo\] GET meta\/plugin was answered \(200 from the upstream\) but NOT recorded: write error ENOTDIR\./m,
    );
  });
});

describe('a nearly full disk (a real tmpfs)', () => {
  /**
   * Runs `script` (an ES module; `WRITER` is the built RecordingWriter's URL, `DIR` the folder) in a
   * child process that has a tmpfs of `size` mounted on a fresh folder, and returns what it printed.
   */
  function inTmpfs(size: string, script: string): string {
    const dir = tempDir();
    const writer = pathToFileURL(join(import.meta.dirname, '../../dist/storage/recording-writer.js')).href;
    const code = `const WRITER = ${JSON.stringify(writer)}; const DIR = ${JSON.stringify(dir)};\n${script}`;
    const run = spawnSync(
      'unshare',
      [
        '--user',
        '--map-root-user',
        '--mount',
        '/bin/sh',
        '-c',
        'mount -t tmpfs -o size="$1" mockvideo-test "$2" && exec "$3" --input-type=module -e "$4"',
        'sh',
        size,
        dir,
        process.execPath,
        code,
      ],
      { encoding: 'utf8', timeout: 20_000 },
    );
    expect(run.stderr).toBe('');
    return run.stdout;
  }

  it.skipIf(!tmpfsWorks)(
    'a write the disk takes only part of (a short write, no error) fails with ENOSPC and leaves no cut file',
    () => {
      // 256 KiB of tmpfs, 200 KiB of it filled: a 100 KB recording fits only in part. write-file-atomic
      // 7.0.1 wrote 57,344 of its bytes, reported success, and left the cut file in place.
      const out = inTmpfs(
        '256k',
        `
      import { readdirSync, writeFileSync } from 'node:fs';
      const { RecordingWriter } = await import(WRITER);
      writeFileSync(DIR + '/filler', Buffer.alloc(200 * 1024));
      const writer = new RecordingWriter(DIR);
      const body = JSON.stringify({ data: 'x'.repeat(100_000), msg: 'OK', result: 1 });
      const recording = { operation: 'meta/cp', matchKey: 'GET meta/cp', recordedAt: '2026-11-23T00:00:00.000Z', request: { method: 'GET', path: '/api/g1/meta/cp', query: [], headers: {} }, response: { status: 200, headers: { 'content-type': 'application/json' }, body } };
      const result = await writer.write(recording).then((name) => 'written ' + name, (error) => 'failed ' + error.code);
      console.log(JSON.stringify({ result, files: readdirSync(DIR, { recursive: true }).sort() }));
      `,
      );
      expect(JSON.parse(out)).toEqual({ result: 'failed ENOSPC', files: ['filler', 'meta-cp'] });
    },
  );
});

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCli, type CliProcess } from '../support/cli.js';
import { clientPath } from '../support/client.js';
import { recordSession, recordingFiles, removeTempDirs } from '../support/recordings.js';
import { startUpstream, type Upstream } from '../support/upstream.js';

let upstream: Upstream;
let dir: string;
let replay: CliProcess;

beforeAll(async () => {
  upstream = await startUpstream();
  ({ dir } = await recordSession(upstream.url, [clientPath('meta/cp')]));
  replay = await startCli(['replay', dir, '--port', '0']);
});

afterAll(async () => {
  await replay.stop();
  removeTempDirs();
  await upstream.close();
});

/** Polls until `check` holds (bounded: 5 s). */
async function until(check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met within 5 s');
    await new Promise((r) => setTimeout(r, 50));
  }
}

const body = async () => (await fetch(`${replay.url}${clientPath('meta/cp')}`)).text();

describe('replay watch mode', () => {
  it('an edited recording changes the next answer without a restart', async () => {
    const [file] = recordingFiles(dir);
    const path = join(dir, file!.name);
    const recording = JSON.parse(readFileSync(path, 'utf8'));
    recording.response.body = '{"data":[],"msg":"OK","result":1}';
    // Written again on every poll: the watcher may still be starting when the test begins.
    await until(async () => {
      writeFileSync(path, `${JSON.stringify(recording, null, 2)}\n`);
      await new Promise((r) => setTimeout(r, 200));
      return (await body()) === '{"data":[],"msg":"OK","result":1}';
    });
    expect(replay.stdout()).toMatch(/recordings reloaded from .*: 1 recording live/);
  });

  it('a broken recording keeps the last good set serving and names the file', async () => {
    const [file] = recordingFiles(dir);
    writeFileSync(join(dir, file!.name), '{ broken');
    await until(async () => replay.stderr().includes('Kept serving the last good recordings'));
    expect(replay.stderr()).toContain(file!.name.split('/').pop());
    expect(await body()).toBe('{"data":[],"msg":"OK","result":1}');
  });
});

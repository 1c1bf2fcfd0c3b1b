import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, startCli } from '../support/cli.js';
import { tempDir } from '../support/recordings.js';
import { useUpstream } from '../support/upstream.js';

const upstream = useUpstream();

describe('the recording folder is checked at start', () => {
  it('a folder that cannot be written fails at start with exit 2, naming it and the cause', async () => {
    const file = join(tempDir(), 'not-a-folder');
    writeFileSync(file, '');
    const { code, stderr } = await runCli([
      'record',
      '--upstream',
      upstream.url,
      '--out',
      join(file, 'session'),
      '--port',
      '0',
    ]);
    expect(code).toBe(2);
    expect(stderr).toMatch(
      /Cannot record into .*not-a-folder\/session: ENOTDIR\. Choose a folder you can write to with --out\./,
    );
  });

  it('a second recorder on the same folder is refused; the lock goes when the first stops', async () => {
    const out = tempDir();
    const first = await startCli(['record', '--upstream', upstream.url, '--out', out, '--port', '0']);
    try {
      const second = await runCli(['record', '--upstream', upstream.url, '--out', out, '--port', '0']);
      expect(second.code).toBe(2);
      expect(second.stderr).toMatch(/is being recorded into by another mockvideo process/);
    } finally {
      expect(await first.stop('SIGINT')).toBe(0);
    }
    expect(existsSync(join(out, '.mockvideo.lock'))).toBe(false);
    const third = await startCli(['record', '--upstream', upstream.url, '--out', out, '--port', '0']);
    await third.stop('SIGINT');
  });
});

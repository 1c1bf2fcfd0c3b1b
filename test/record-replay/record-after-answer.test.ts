// `mockvideo record` answers the client as soon as the upstream's answer is complete and writes the
// recording after it: a stop (Ctrl-C, SIGTERM) must still write every exchange that was answered,
// whole, and leave no temporary file.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { OPERATION_NAMES } from '../../src/contract/index.js';
import { parseRecording } from '../../src/normalise/recording-schema.js';
import { RECORDING_FILE } from '../../src/storage/recording-names.js';
import { startCli } from '../support/cli.js';
import { removeTempDirs, tempDir } from '../support/recordings.js';
import { clientPathWith } from '../support/sessions.js';
import { useUpstream } from '../support/upstream.js';

const upstream = useUpstream();
afterAll(removeTempDirs);

/** Every file under `dir` (relative paths), except the lock. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter(
      (entry) => entry.isFile() && !entry.name.startsWith('.mockvideo.lock') && entry.name !== '.mockvideo-origins',
    )
    .map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1))
    .sort();
}

describe('recordings written after the answer', () => {
  it('no token in the journal or requests.har, for an exchange recorded after its answer or passed through', async () => {
    // A token the upstream echoes in its body and a header (ad_config), made of characters that encode.
    const token = 'tok%2Ben+with%20space%2Fslash%26amp';
    const out = tempDir();
    upstream.switches.echoSecrets = true;
    const recorder = await startCli([
      'record',
      '--upstream',
      upstream.url,
      '--out',
      out,
      '--port',
      '0',
      '--quiet',
      '--only',
      'ad_config',
    ]);
    let journal = '';
    try {
      // Recorded (ad_config), then passed through without a recording (meta/cp is not in --only).
      for (const operation of ['ad_config', 'meta/cp'] as const)
        expect((await fetch(`${recorder.url}${clientPathWith(operation, { _st: token })}`)).status).toBe(200);
      const { requests } = await (await fetch(`${recorder.url}/__mockvideo/requests`)).json();
      expect(requests.map((r: { operation: string }) => r.operation)).toEqual(['ad_config', 'meta/cp']);
      for (const { id } of requests as Array<{ id: number }>)
        journal += await (await fetch(`${recorder.url}/__mockvideo/requests/${id}`)).text();
      journal += await (await fetch(`${recorder.url}/__mockvideo/requests.har`)).text();
    } finally {
      upstream.switches.echoSecrets = false;
      expect(await recorder.stop('SIGINT')).toBe(0);
    }
    expect(journal).toContain('<SERVICE_TOKEN>');
    for (const form of [token, decodeURIComponent(token), 'tok+en', 'tok%2Ben'])
      expect(journal, form).not.toContain(form);
  });

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`a ${signal} during a burst: every answered exchange is recorded, whole and valid; no temporary file is left`, async () => {
      const out = tempDir();
      const recorder = await startCli(['record', '--upstream', upstream.url, '--out', out, '--port', '0', '--quiet']);
      const total = 90;
      let answered = 0;
      let stopping: Promise<number | null> | undefined;
      // Each request its own match key (`_uspace`), spread over the six operations, all at once.
      const requests = Array.from({ length: total }, (_, i) =>
        fetch(
          `${recorder.url}${clientPathWith(OPERATION_NAMES[i % OPERATION_NAMES.length]!, { _uspace: String(i) })}`,
        ).then(async (response) => {
          await response.arrayBuffer();
          if (response.status === 200) answered++;
          // Stopped while answers (and so writes) are still coming.
          if (answered === total / 3) stopping = recorder.stop(signal);
          return response.status;
        }),
      );
      const statuses = await Promise.allSettled(requests);
      const code = await (stopping ?? recorder.stop(signal));
      expect(code).toBe(0);
      const ok = statuses.filter((s) => s.status === 'fulfilled' && s.value === 200).length;
      expect(ok).toBe(answered);
      expect(ok).toBeGreaterThanOrEqual(total / 3);
      const files = filesUnder(out);
      // Recording files only (a temporary file is `<name>.json.<pid>.<n>.tmp`).
      for (const file of files) expect(file.split('/')[1]).toMatch(RECORDING_FILE);
      expect(files).toHaveLength(ok);
      for (const file of files) {
        const parsed = parseRecording(JSON.parse(readFileSync(join(out, file), 'utf8')), file);
        expect(parsed.ok, file).toBe(true);
      }
      expect(recorder.stdout()).toMatch(
        new RegExp(`Recorded ${ok} exchanges into .*: ${ok} seen, 0 skipped .*, 0 lost \\(write errors\\)`),
      );
    });
  }
});

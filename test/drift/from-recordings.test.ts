import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATION_NAMES, type OperationName } from '../../src/contract/index.js';
import type { NamedRecording } from '../../src/normalise/index.js';
import { parseRecording } from '../../src/normalise/recording-schema.js';
import { forEachRecording } from '../../src/storage/read-recordings.js';
import { runCli, startCli } from '../support/cli.js';
import { clientPath } from '../support/client.js';
import { getBytes, recordSession, removeTempDirs, tempDir } from '../support/recordings.js';
import { startFakeService, type FakeService } from './fake-service.js';

let service: FakeService;
let session: string;
let scenarios: string;
let made: { code: number | null; stdout: string; stderr: string };

beforeAll(async () => {
  service = await startFakeService();
  // A start-up (each operation once, the diversion from the gallery), then the diversion from
  // elsewhere, then meta/setting again: its counter gives a second answer.
  const paths = [
    ...OPERATION_NAMES.map((op) => clientPath(op)),
    clientPath('localplay/diversion', { is_from_gallery: 'false' }),
    clientPath('meta/setting'),
  ];
  session = (await recordSession(service.url, paths)).dir;
  scenarios = tempDir('mockvideo-from-recordings-');
  made = await runCli(['scenario', 'from-recordings', session, '--name', 'qa-session', '--scenarios-dir', scenarios]);
}, 30_000);

afterAll(async () => {
  removeTempDirs();
  await service.close();
});

/** The recorded body texts of an operation, in recorded order (with is_from_gallery for the diversion). */
function recorded(operation: OperationName, gallery?: string): string[] {
  const recordings: NamedRecording[] = [];
  forEachRecording(session, (named) => recordings.push(named), parseRecording);
  return recordings
    .filter(
      ({ recording }) =>
        recording.operation === operation &&
        (gallery === undefined || recording.request.query.some(([n, v]) => n === 'is_from_gallery' && v === gallery)),
    )
    .sort((a, b) => a.recording.recordedAt.localeCompare(b.recording.recordedAt))
    .map(({ recording }) => recording.response.body!);
}

describe('scenario from-recordings', () => {
  it('writes an editable scenario: data where it serialises back exactly, the exact text where not, when stubs and a sequence', () => {
    expect(made.stderr).toBe('');
    expect(made.code).toBe(0);
    const text = readFileSync(join(scenarios, 'qa-session.json'), 'utf8');
    const file = JSON.parse(text) as { extends?: string; operations: Record<string, any> };
    expect(file.extends).toBeUndefined(); // all six recorded, none like a shipped one
    expect(file.operations.ad_config.data.enabled).toBe(true);
    expect(file.operations['meta/setting'].sequence.map((r: any) => r.data.recommend_show_times_interval)).toEqual([
      1, 2,
    ]);
    expect(file.operations['localplay/diversion'].map((s: any) => s.when)).toEqual([
      { query: { is_from_gallery: 'false' } },
      { query: { is_from_gallery: 'true' } },
    ]);
    // Go-style \u003c escapes cannot be re-serialised: kept as the recorded text.
    expect(file.operations['localplay/recomm'].body).toContain('\\u003cb\\u003e');
    expect(file.operations['meta/cp'].data[0].app_icon).toBe('{origin}/__mockvideo/media/icon/cp1.png');
    expect(text).not.toContain(service.url);
    // The recorder kept its upstream's origin in the folder: the service's own image URLs became {origin} without --recorded-origin.
    expect(JSON.parse(readFileSync(join(session, '.mockvideo-origins'), 'utf8'))).toEqual({ origins: [service.url] });
    expect(text).toContain('{origin}/images/V-cp1-r1.jpg');
    expect(text).toContain('<SERVICE_TOKEN>');
    expect(text).not.toContain('PLACEHOLDER-SERVICE-TOKEN');
  });

  it('validate accepts the file', async () => {
    const { code, stdout, stderr } = await runCli(['validate', join(scenarios, 'qa-session.json')]);
    expect(stderr).toBe('');
    expect(stdout).toMatch(/1 of 1 scenario file valid/);
    expect(code).toBe(0);
  });

  it('serve answers with the recorded bodies byte for byte after {origin} substitution, sequences included', async () => {
    const serve = await startCli(['serve', '--scenarios-dir', scenarios, '--scenario', 'qa-session', '--port', '0']);
    try {
      const expected = (texts: string[]) => texts.map((t) => Buffer.from(t.split(service.url).join(serve.url), 'utf8'));
      const get = async (path: string) => (await getBytes(`${serve.url}${path}`)).body;
      for (const op of ['ad_config', 'meta/cp', 'meta/plugin', 'localplay/recomm'] as const)
        expect(await get(clientPath(op)), op).toEqual(expected(recorded(op))[0]);
      expect(await get(clientPath('localplay/diversion', { is_from_gallery: 'true' }))).toEqual(
        expected(recorded('localplay/diversion', 'true'))[0],
      );
      expect(await get(clientPath('localplay/diversion', { is_from_gallery: 'false' }))).toEqual(
        expected(recorded('localplay/diversion', 'false'))[0],
      );
      const settings = expected(recorded('meta/setting'));
      expect(settings).toHaveLength(2);
      expect([
        await get(clientPath('meta/setting')),
        await get(clientPath('meta/setting')),
        await get(clientPath('meta/setting')),
      ]).toEqual([settings[0], settings[1], settings[1]]);
    } finally {
      await serve.stop();
    }
  }, 30_000);

  it('extends the closest shipped scenario when operations were not recorded, and says why a device cannot be chosen', async () => {
    const partial = (await recordSession(service.url, [clientPath('ad_config'), clientPath('meta/setting')])).dir;
    const out = tempDir('mockvideo-from-recordings-');
    const result = await runCli(['scenario', 'from-recordings', partial, '--name', 'partial', '--scenarios-dir', out]);
    expect(result.code).toBe(0);
    const file = JSON.parse(readFileSync(join(out, 'partial.json'), 'utf8')) as {
      extends?: string;
      operations: object;
    };
    expect(file.extends).toBe('default');
    expect(Object.keys(file.operations).sort()).toEqual(['ad_config', 'meta/setting']);
    expect((await runCli(['validate', join(out, 'partial.json')])).code).toBe(0);

    const device = await runCli([
      'scenario',
      'from-recordings',
      partial,
      '--name',
      'device',
      '--scenarios-dir',
      out,
      '--device',
      'abf1',
    ]);
    expect(device.code).toBe(2);
    expect(device.stderr).toMatch(/no _sdevid values.*--keep-identifiers/);
    const again = await runCli(['scenario', 'from-recordings', partial, '--name', 'partial', '--scenarios-dir', out]);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/exists already.*--force/);
  }, 30_000);
});

describe('scenario from-recordings and validate never let a file shadow a shipped scenario unnoticed', () => {
  it('scenario from-recordings --name default is refused, naming the shipped scenario, and writes nothing', async () => {
    const dir = tempDir('mockvideo-shadow-');
    const { code, stderr } = await runCli([
      'scenario',
      'from-recordings',
      session,
      '--name',
      'default',
      '--scenarios-dir',
      dir,
    ]);
    expect(code).toBe(2);
    expect(stderr).toMatch(
      /^\[mockvideo\] --name "default" is the name of a shipped scenario: .* Pick another --name, e.g\. "default-recorded"\.$/m,
    );
    expect(readdirSync(dir)).toEqual([]);
  });

  it('validate counts only the files given: a default.json that breaks 12 shipped scenarios is "0 of 1 valid", not "-12 of 1"', async () => {
    const dir = tempDir('mockvideo-shadow-');
    writeFileSync(
      join(dir, 'default.json'),
      JSON.stringify({ description: 'shadow', extends: 'gallery', operations: {} }),
    );
    const { code, stdout } = await runCli(['validate', join(dir, 'default.json')]);
    expect(code).toBe(1);
    expect(stdout).toMatch(/^0 of 1 scenario file valid, \d+ problems$/m);
  });
});

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OPERATION_NAMES } from '../../src/contract/index.js';
import { startCli } from '../support/cli.js';
import { clientPath } from '../support/client.js';
import { encodedForms, getBytes, recordSession, recordingFiles, tempDir } from '../support/recordings.js';
import { OTHER_SESSION, clientPathWith } from '../support/sessions.js';
import { useUpstream } from '../support/upstream.js';

const upstream = useUpstream();

/** A made-up token with characters that encode differently: `+`, space, `/`, `&`. */
const TOKEN_RAW = 'tok%2Ben+with%20space%2Fslash%26amp';
const TOKEN = 'tok+en with space/slash&amp';
const SDEVID = '0123456789abcdef'.repeat(4);

describe('leak scan', () => {
  it('replaces a token and identifiers the upstream echoes (body and headers, in every encoding); the client still gets the echo', async () => {
    upstream.switches.echoSecrets = true;
    try {
      const path = clientPathWith('ad_config', { _st: TOKEN_RAW, _sdevid: SDEVID });
      const { dir, bodies } = await recordSession(upstream.url, [path]);
      const echoed = JSON.parse(bodies[0]!.toString());
      expect(echoed.data.token).toBe(TOKEN);
      expect(echoed.data.echo).toContain(`_st=${TOKEN_RAW}`);
      const [file] = recordingFiles(dir);
      for (const form of [...encodedForms(TOKEN), TOKEN_RAW, ...encodedForms(SDEVID)])
        expect(file!.text, form).not.toContain(form);
      const stored = JSON.parse(file!.text);
      expect(JSON.parse(stored.response.body).data).toMatchObject({ token: '<SERVICE_TOKEN>', device: '<REDACTED>' });
      expect(stored.response.headers['x-echo-token']).toBe('<SERVICE_TOKEN>');
    } finally {
      upstream.switches.echoSecrets = false;
    }
  });

  it('--keep-identifiers keeps identifier values in files (still out of the match key) but never the token', async () => {
    const { dir } = await recordSession(
      upstream.url,
      [clientPathWith('meta/cp', { _sdevid: SDEVID })],
      ['--keep-identifiers'],
    );
    const stored = JSON.parse(recordingFiles(dir)[0]!.text);
    expect(stored.request.query).toContainEqual(['_sdevid', SDEVID]);
    expect(stored.request.query).toContainEqual(['_st', '<SERVICE_TOKEN>']);
    expect(stored.matchKey).not.toContain(SDEVID);
  });
});

describe('normalisation lists from flags and a config file', () => {
  it('a parameter made volatile in a config file no longer takes part in matching', async () => {
    const { dir } = await recordSession(upstream.url, [clientPath('meta/cp')]);
    const config = join(tempDir(), 'normalise.json');
    writeFileSync(config, JSON.stringify({ volatile: ['_nonce', '_ts', '_model'] }));
    for (const args of [
      ['--config', config],
      ['--volatile', '_nonce,_ts,_model'],
    ]) {
      const replay = await startCli(['replay', dir, '--match', 'strict', '--port', '0', ...args]);
      try {
        const { status, headers } = await getBytes(
          `${replay.url}${clientPathWith('meta/cp', { ...OTHER_SESSION, _model: 'Pixel%207' })}`,
        );
        expect(status).toBe(200);
        expect(headers.get('x-mockvideo-match')).toBe('exact');
      } finally {
        await replay.stop('SIGINT');
      }
    }
  });

  it('a config file may add protected names but never remove the defaults: record still stores neither the token nor _sdevid', async () => {
    // A data-only file that lists other names as secret and identity, and asks to keep identifiers.
    const config = join(tempDir(), 'weaken.json');
    writeFileSync(config, JSON.stringify({ secret: ['_other'], identity: ['_uid'] }));
    const path = `${clientPathWith('meta/cp', { _st: TOKEN_RAW, _sdevid: SDEVID })}&_uid=user-identifier-1234&_other=other-secret-5678`;
    const { dir } = await recordSession(upstream.url, [path], ['--config', config]);
    const [file] = recordingFiles(dir);
    for (const raw of [TOKEN_RAW, SDEVID, 'user-identifier-1234', 'other-secret-5678'])
      expect(file!.text).not.toContain(raw);
    const { query } = JSON.parse(file!.text).request;
    expect(query).toContainEqual(['_st', '<SERVICE_TOKEN>']);
    expect(query).toContainEqual(['_sdevid', '<REDACTED>']);
    expect(query).toContainEqual(['_uid', '<REDACTED>']);
    expect(query).toContainEqual(['_other', '<SERVICE_TOKEN>']);
  });

  it('keep-identifiers is taken from the command line only: a config file or environment variable saying true is refused, naming it', async () => {
    const config = join(tempDir(), 'keep.json');
    writeFileSync(config, JSON.stringify({ 'keep-identifiers': true }));
    const { runCli } = await import('../support/cli.js');
    const fromFile = await runCli([
      'record',
      '--upstream',
      upstream.url,
      '--out',
      tempDir(),
      '--config',
      config,
      '--port',
      '0',
    ]);
    expect(fromFile.code).toBe(2);
    expect(fromFile.stderr).toMatch(
      /^\[mockvideo\] .*keep\.json: "keep-identifiers" is taken from the command line only \(it writes real device identifiers into the recordings\)\. Remove it there and pass --keep-identifiers on the command line\.$/m,
    );
    const fromEnv = await runCli(['record', '--upstream', upstream.url, '--out', tempDir(), '--port', '0'], {
      env: { MOCKVIDEO_KEEP_IDENTIFIERS: '1' },
    });
    expect(fromEnv.code).toBe(2);
    expect(fromEnv.stderr).toMatch(
      /The environment variable MOCKVIDEO_KEEP_IDENTIFIERS: "keep-identifiers" is taken from the command line only/,
    );
    expect(fromEnv.stderr).not.toMatch(/\n\s+at /);
  });

  it('refuses a config file with an unknown setting, naming it', async () => {
    const config = join(tempDir(), 'bad.json');
    writeFileSync(config, JSON.stringify({ volatil: ['_nonce'] }));
    const { runCli } = await import('../support/cli.js');
    const result = await runCli(['replay', tempDir(), '--config', config, '--port', '0']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/\[mockvideo\] .*unknown setting "volatil"/);
  });
});

describe('record --only', () => {
  it("replaces one operation's recordings in an existing folder and leaves the rest alone", async () => {
    const { dir } = await recordSession(
      upstream.url,
      OPERATION_NAMES.map((op) => clientPath(op)),
    );
    const before = recordingFiles(dir);
    const oldPlugin = before.filter((f) => f.name.startsWith('meta-plugin/'));
    await new Promise((resolve) => setTimeout(resolve, 5));
    await recordSession(
      upstream.url,
      [clientPath('meta/cp'), clientPathWith('meta/plugin', { _region: 'DE' }), clientPath('meta/setting')],
      ['--only', 'meta/plugin'],
      dir,
    );
    const after = recordingFiles(dir);
    expect(after.filter((f) => !f.name.startsWith('meta-plugin/'))).toEqual(
      before.filter((f) => !f.name.startsWith('meta-plugin/')),
    );
    const newPlugin = after.filter((f) => f.name.startsWith('meta-plugin/'));
    expect(newPlugin).toHaveLength(1);
    expect(newPlugin[0]!.name).not.toBe(oldPlugin[0]!.name);
    expect(JSON.parse(newPlugin[0]!.text).request.query).toContainEqual(['_region', 'DE']);
  });
});

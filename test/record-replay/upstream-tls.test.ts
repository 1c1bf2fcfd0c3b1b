import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCli } from '../support/cli.js';
import { clientPath } from '../support/client.js';
import { recordingFiles, removeTempDirs, tempDir } from '../support/recordings.js';

// Certificates are made here, at test time (library `selfsigned`, as `serve --https` does): no key
// material is committed. Only the certificates are written, to a temporary folder, for NODE_EXTRA_CA_CERTS.

const BODY = '{"data":[],"msg":"OK","result":1}';

interface TlsUpstream {
  url: string;
  server: Server;
  /** Requests that got past the TLS handshake. */
  received: number;
}

/** An https upstream on 127.0.0.1 answering every request with {@link BODY}. */
async function startTlsUpstream(cert: string, key: string): Promise<TlsUpstream> {
  const upstream: TlsUpstream = { url: '', server: undefined as unknown as Server, received: 0 };
  upstream.server = createServer({ cert, key }, (_req, res) => {
    upstream.received++;
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(BODY.length) }).end(BODY);
  });
  // The refused handshakes end in an alert from the client: expected.
  upstream.server.on('tlsClientError', () => undefined);
  await new Promise<void>((resolve) => upstream.server.listen(0, '127.0.0.1', resolve));
  upstream.url = `https://127.0.0.1:${(upstream.server.address() as AddressInfo).port}`;
  return upstream;
}

/** Self-signed, for the name `upstream.invalid` only: not trusted, and not 127.0.0.1 once trusted. */
let selfSigned: TlsUpstream;
/** Signed by a CA nobody trusts, for 127.0.0.1. */
let unknownCa: TlsUpstream;
let selfSignedCertFile: string;
let caFile: string;

beforeAll(async () => {
  const { generate } = await import('selfsigned');
  const dir = tempDir('mockvideo-tls-');
  const own = await generate([{ name: 'commonName', value: 'upstream.invalid' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 2, value: 'upstream.invalid' }] }],
  });
  const ca = await generate([{ name: 'commonName', value: 'mockvideo test CA nobody trusts' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, digitalSignature: true, critical: true },
    ],
  });
  const leaf = await generate([{ name: 'commonName', value: '127.0.0.1' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    ca: { cert: ca.cert, key: ca.private },
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] },
    ],
  });
  selfSignedCertFile = join(dir, 'self-signed.pem');
  caFile = join(dir, 'ca.pem');
  writeFileSync(selfSignedCertFile, own.cert);
  writeFileSync(caFile, ca.cert);
  selfSigned = await startTlsUpstream(own.cert, own.private);
  unknownCa = await startTlsUpstream(leaf.cert, leaf.private);
});

afterAll(() => {
  selfSigned.server.close();
  unknownCa.server.close();
  removeTempDirs();
});

describe('a TLS upstream whose certificate does not verify', () => {
  it.each<[string, () => TlsUpstream, () => Record<string, string>, string]>([
    ['self-signed', () => selfSigned, () => ({}), 'DEPTH_ZERO_SELF_SIGNED_CERT'],
    ['signed by an unknown CA', () => unknownCa, () => ({}), 'UNABLE_TO_VERIFY_LEAF_SIGNATURE'],
    [
      'trusted but for another host name',
      () => selfSigned,
      () => ({ NODE_EXTRA_CA_CERTS: selfSignedCertFile }),
      'ERR_TLS_CERT_ALTNAME_INVALID',
    ],
  ])(
    '%s: refused with a 502 JSON error naming the problem and --insecure-upstream; nothing sent or written',
    async (_what, upstream, env, cause) => {
      const out = tempDir();
      const before = upstream().received;
      const recorder = await startCli(['record', '--upstream', upstream().url, '--out', out, '--port', '0'], {
        env: env(),
      });
      try {
        const answer = await fetch(`${recorder.url}${clientPath('meta/plugin')}`);
        expect(answer.status).toBe(502);
        expect(await answer.json()).toMatchObject({
          upstream: upstream().url,
          cause,
          error: expect.stringMatching(
            new RegExp(`certificate of the upstream ${upstream().url}.*${cause}.*--insecure-upstream`),
          ),
        });
        expect(upstream().received).toBe(before);
        expect((await fetch(`${recorder.url}/__mockvideo/health`)).status).toBe(200);
      } finally {
        await recorder.stop('SIGINT');
      }
      expect(recordingFiles(out)).toEqual([]);
    },
  );

  it('a certificate that verifies is recorded without any flag (the CA trusted with NODE_EXTRA_CA_CERTS)', async () => {
    const out = tempDir();
    const recorder = await startCli(['record', '--upstream', unknownCa.url, '--out', out, '--port', '0'], {
      env: { NODE_EXTRA_CA_CERTS: caFile },
    });
    try {
      const answer = await fetch(`${recorder.url}${clientPath('meta/plugin')}`);
      expect(answer.status).toBe(200);
      expect(await answer.text()).toBe(BODY);
    } finally {
      await recorder.stop('SIGINT');
    }
    expect(recordingFiles(out)).toHaveLength(1);
  });

  it('record --insecure-upstream accepts it, records the answer and warns at start', async () => {
    const out = tempDir();
    const recorder = await startCli([
      'record',
      '--upstream',
      selfSigned.url,
      '--out',
      out,
      '--port',
      '0',
      '--insecure-upstream',
    ]);
    try {
      const answer = await fetch(`${recorder.url}${clientPath('meta/plugin')}`);
      expect(answer.status).toBe(200);
      expect(await answer.text()).toBe(BODY);
    } finally {
      await recorder.stop('SIGINT');
    }
    expect(recorder.stderr()).toMatch(
      /Warning: --insecure-upstream: the TLS certificate of https:\/\/127\.0\.0\.1:\d+ is not checked/,
    );
    const files = recordingFiles(out);
    expect(files.map((f) => f.name)).toEqual([expect.stringMatching(/^meta-plugin\//)]);
    expect(JSON.parse(files[0]!.text).response.body).toBe(BODY);
  });

  it.each([
    ['refuses it by default', [], 502],
    ['accepts it with --insecure-upstream', ['--insecure-upstream'], 200],
  ] as const)('replay --record-missing %s', async (_what, flags, status) => {
    const dir = tempDir();
    const replay = await startCli([
      'replay',
      dir,
      '--record-missing',
      '--upstream',
      selfSigned.url,
      '--port',
      '0',
      ...flags,
    ]);
    try {
      const answer = await fetch(`${replay.url}${clientPath('meta/plugin')}`);
      expect(answer.status).toBe(status);
      if (status === 502) expect(await answer.json()).toMatchObject({ cause: 'DEPTH_ZERO_SELF_SIGNED_CERT' });
      else expect(await answer.text()).toBe(BODY);
    } finally {
      await replay.stop('SIGINT');
    }
    expect(recordingFiles(dir)).toHaveLength(status === 200 ? 1 : 0);
  });
});

// Issue 39, item 1: nothing a request sends can end the process. Random bytes in paths, query
// parameter names and values, and header names and values go over raw sockets to every mode and
// engine (serve, replay, record; --engine routes and msw), and after each the server still answers
// /__mockvideo/health. Loopback only; bounded runs.
import { connect } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import '../support/fast-check.js';
import { startCli, type CliProcess } from '../support/cli.js';
import { clientPath } from '../support/client.js';
import { recordSession, removeTempDirs, tempDir } from '../support/recordings.js';
import { startUpstream, type Upstream } from '../support/upstream.js';

/** Sends `raw` (a whole HTTP/1.1 request, as bytes) on a fresh connection; resolves when the server answers or closes, within 3 s. */
function sendRaw(base: string, raw: Buffer): Promise<string> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    let got = '';
    const done = () => {
      socket.destroy();
      resolve(got.split('\r\n', 1)[0] ?? '');
    };
    socket.setTimeout(3000, done);
    socket.on('data', (chunk) => {
      got += chunk.toString('latin1');
      if (got.includes('\r\n\r\n')) done();
    });
    socket.on('error', done);
    socket.on('close', done);
    socket.end(raw);
  });
}

/** Percent-encoded bytes: a byte sequence as `%XX` escapes (any byte, NUL, CR, LF and UTF-8 above U+00FF included). */
const escaped = fc
  .uint8Array({ maxLength: 12 })
  .map((bytes) => [...bytes].map((b) => `%${b.toString(16).padStart(2, '0')}`).join(''));
/** Raw bytes of a request target (what a client may send unescaped): anything but the line's own separators. */
const rawBytes = fc
  .uint8Array({ maxLength: 12 })
  .map((bytes) => Buffer.from(bytes.filter((b) => b !== 0x20 && b !== 0x0d && b !== 0x0a)).toString('latin1'));
const part = fc.oneof(
  escaped,
  rawBytes,
  fc.string({ maxLength: 8 }),
  fc.constantFrom('%0A', '%00', '%E6%97%A5', '%', '%zz', '..', '//'),
);

/** Mostly `value`, sometimes one of `others` (the ordinary path is where the answers are, and their headers). */
const mostly = <T>(value: T, other: fc.Arbitrary<T>) =>
  fc.oneof({ arbitrary: fc.constant(value), weight: 4 }, { arbitrary: other, weight: 1 });

/** One hostile request: a path (a recorded operation's, mostly, with odd parts at times), query pairs, and a header. */
const hostile = fc.record({
  operation: mostly(
    'meta/cp',
    fc.constantFrom('ad_config', 'meta/setting', 'localplay/diversion', 'meta/upgrade', 'nothing'),
  ),
  prefix: mostly(
    '',
    part.map((p) => `/scenarios/${p}`),
  ),
  suffix: mostly(
    '',
    part.map((p) => `/${p}`),
  ),
  pairs: fc.array(fc.tuple(part, part), { minLength: 1, maxLength: 4 }),
  header: fc.tuple(
    fc.oneof(fc.constant('x-mockvideo-scenario'), fc.constant('accept'), part),
    fc.uint8Array({ maxLength: 16 }),
  ),
  method: mostly('GET', fc.constantFrom('HEAD', 'POST', 'TRACE', 'OPTIONS', 'DELETE')),
});

/** One hostile request as bytes: its method and target, the client's common query with the hostile pairs, one hostile header. */
function requestBytes(input: {
  operation: string;
  prefix: string;
  suffix: string;
  pairs: [string, string][];
  header: [string, Uint8Array];
  method: string;
}): Buffer {
  const query = [...clientPath('meta/cp').split('?')[1]!.split('&'), ...input.pairs.map(([n, v]) => `${n}=${v}`)].join(
    '&',
  );
  const target = `${input.prefix}/api/g1/${input.operation}${input.suffix}?${query}`;
  const [name, value] = input.header;
  return Buffer.concat([
    Buffer.from(`${input.method} ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\n`, 'latin1'),
    Buffer.from(`${name}: `, 'latin1'),
    Buffer.from(value.filter((b) => b !== 0x0d && b !== 0x0a)),
    Buffer.from('\r\nConnection: close\r\n\r\n', 'latin1'),
  ]);
}

let upstream: Upstream;
let recorded: string;
beforeAll(async () => {
  upstream = await startUpstream();
  ({ dir: recorded } = await recordSession(upstream.url, [clientPath('meta/cp'), clientPath('meta/setting')]));
}, 60_000);
afterAll(async () => {
  await upstream?.close();
  removeTempDirs();
});

const MODES: Record<string, () => string[]> = {
  'serve --engine routes': () => ['serve', '--engine', 'routes'],
  'serve --engine msw': () => ['serve', '--engine', 'msw'],
  'replay (nearest) --engine routes': () => ['replay', recorded, '--engine', 'routes', '--no-watch'],
  'replay (nearest) --engine msw': () => ['replay', recorded, '--engine', 'msw', '--no-watch'],
  'replay --match strict --fallback-scenario default': () => [
    'replay',
    recorded,
    '--match',
    'strict',
    '--fallback-scenario',
    'default',
    '--no-watch',
  ],
  record: () => ['record', '--upstream', upstream.url, '--out', tempDir()],
};

describe('nothing a request sends ends the process (issue 39, item 1)', () => {
  it.each(Object.keys(MODES))(
    '%s answers /__mockvideo/health after every hostile request',
    async (mode) => {
      const cli: CliProcess = await startCli([...MODES[mode]!(), '--port', '0']);
      try {
        let exited: number | null | undefined;
        cli.child.once('exit', (code) => (exited = code));
        await fc.assert(
          fc.asyncProperty(hostile, async (input) => {
            await sendRaw(cli.url, requestBytes(input));
            const health = await fetch(`${cli.url}/__mockvideo/health`);
            expect(exited, cli.stderr()).toBeUndefined();
            expect(health.status).toBe(200);
          }),
          { numRuns: 40 },
        );
      } finally {
        await cli.stop();
      }
    },
    120_000,
  );
});

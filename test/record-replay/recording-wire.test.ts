// Recordings are validated as the wire needs them (issue 39, H2, L5, L7): a recording `replay` could
// not send (a header name that is no token, a value with CR, LF, NUL or above U+00FF, a framing
// header, a 1xx, a 204/304 with a body) is refused by `validate` and `replay` with one line naming the
// file and the field, and skipped by `import`; a recording "file" that is no regular file (a FIFO, a
// symbolic link leaving the folder) is refused without being read; no error prints a file's content.
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_POLICY, formatRecording, matchKey, type Recording } from '../../src/normalise/index.js';
import { keyHash } from '../../src/storage/recording-names.js';
import { runCli } from '../support/cli.js';
import { canMakeFifo, makeFifo } from '../support/fifo.js';
import { recordingFiles, removeTempDirs, tempDir } from '../support/recordings.js';

afterAll(() => removeTempDirs());

/** A valid recording of meta/cp, with `change` applied. */
function recordingWith(change: (r: Recording) => void = () => {}): Recording {
  const recording: Recording = {
    operation: 'meta/cp',
    matchKey: matchKey('GET', 'meta/cp', [], DEFAULT_POLICY),
    recordedAt: '2026-11-27T00:00:00.000Z',
    request: { method: 'GET', path: '/api/g1/meta/cp', query: [], headers: {} },
    response: {
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: '{"data":[],"msg":"OK","result":1}',
    },
  };
  change(recording);
  return recording;
}

/** The file name of the one meta/cp recording of {@link recordingWith}. */
const FILE = `meta-cp/${keyHash(matchKey('GET', 'meta/cp', [], DEFAULT_POLICY))}-000.json`;

/** A recording folder holding one recording; returns the folder. */
function folderWith(recording: Recording): string {
  const dir = tempDir();
  mkdirSync(join(dir, 'meta-cp'));
  writeFileSync(join(dir, FILE), formatRecording(recording));
  return dir;
}

/** Each recording replay could not send, and the field its problem names. */
const UNSENDABLE: Array<[string, (r: Recording) => void, RegExp]> = [
  [
    'a header value with a line feed',
    (r) => (r.response.headers['x-echo'] = 'one\ntwo'),
    /at response\.headers\["x-echo"\]: "x-echo" has a control character/,
  ],
  [
    'a header value with CR',
    (r) => (r.response.headers['x-echo'] = 'one\rtwo'),
    /at response\.headers\["x-echo"\]: "x-echo" has a control character/,
  ],
  [
    'a header value with NUL',
    (r) => (r.response.headers['x-echo'] = 'one\0two'),
    /at response\.headers\["x-echo"\]: "x-echo" has a control character/,
  ],
  [
    'a header value above U+00FF',
    (r) => (r.response.headers['x-title'] = '日本'),
    /at response\.headers\["x-title"\]: "x-title" has .* a character above U\+00FF/,
  ],
  [
    'a header name that is no token',
    (r) => (r.response.headers['x echo'] = 'a'),
    /at response\.headers\["x echo"\]: "x echo" is not a header name/,
  ],
  [
    'a header name with a line feed (named on one line)',
    (r) => (r.response.headers['x-a\nx-b'] = 'a'),
    /at response\.headers\["x-a\\nx-b"\]: "x-a\\nx-b" is not a header name/,
  ],
  [
    'a request header value with a line feed (drift sends it)',
    (r) => (r.request.headers['user-agent'] = 'one\ntwo'),
    /at request\.headers\["user-agent"\]: "user-agent" has a control character/,
  ],
  [
    'content-length',
    (r) => (r.response.headers['content-length'] = '33'),
    /at response\.headers\["content-length"\]: "content-length" is not stored in a recording/,
  ],
  [
    'transfer-encoding',
    (r) => (r.response.headers['Transfer-Encoding'] = 'chunked'),
    /at response\.headers\["Transfer-Encoding"\]: "Transfer-Encoding" is not stored in a recording/,
  ],
  ['status 101', (r) => (r.response.status = 101), /at response\.status: 101 is an interim answer/],
  ['status 103', (r) => (r.response.status = 103), /at response\.status: 103 is an interim answer/],
  ['status 204 with a body', (r) => (r.response.status = 204), /at response\.body: a 204 answer has no body/],
  [
    'status 304 with a base64 body',
    (r) => {
      r.response.status = 304;
      delete r.response.body;
      r.response.bodyBase64 = 'AAEC';
    },
    /at response\.bodyBase64: a 304 answer has no body/,
  ],
];

describe('a recording replay could not send', () => {
  it.each(UNSENDABLE)(
    '%s: validate lists it (exit 1) and replay refuses to start (exit 2), one line naming file and field',
    async (_what, change, problem) => {
      const dir = folderWith(recordingWith(change));
      const validate = await runCli(['validate', dir]);
      expect(validate.stdout).toMatch(
        new RegExp(`^✗ ${join(dir, FILE).replace(/[.]/g, '\\.')} ${problem.source}`, 'm'),
      );
      expect(validate.stdout).toMatch(/0 of 1 recording in .* valid/);
      expect(validate.code).toBe(1);
      const replay = await runCli(['replay', dir, '--port', '0']);
      expect(replay.stderr).toMatch(new RegExp(`^  ${FILE.replace(/[.]/g, '\\.')} ${problem.source}`, 'm'));
      expect(replay.stderr).not.toMatch(/\n\s+at /);
      expect(replay.code).toBe(2);
    },
  );

  it.each([
    ['204 without a body', (r: Recording) => ((r.response.status = 204), (r.response.body = ''))],
    ['304 without a body', (r: Recording) => ((r.response.status = 304), (r.response.body = ''))],
    ['a Latin-1 header value', (r: Recording) => (r.response.headers['x-name'] = 'café')],
  ])('%s is a valid recording', async (_what, change) => {
    const dir = folderWith(recordingWith(change));
    const validate = await runCli(['validate', dir]);
    expect(validate.stdout).toMatch(/1 of 1 recording in .* valid/);
    expect(validate.code).toBe(0);
  });
});

describe('import of a HAR with entries replay could not send', () => {
  it('skips each with a reason naming the field, imports the rest and counts the skipped', async () => {
    const entry = (
      status: number,
      headers: Array<{ name: string; value: string }>,
      text = '{"data":[],"msg":"OK","result":1}',
    ) => ({
      startedDateTime: '2026-11-27T00:00:00.000Z',
      time: 1,
      request: {
        method: 'GET',
        url: 'http://api.example.com/api/g1/meta/cp?ref=',
        httpVersion: 'HTTP/1.1',
        headers: [],
        queryString: [],
        cookies: [],
        headersSize: -1,
        bodySize: 0,
      },
      response: {
        status,
        statusText: '',
        httpVersion: 'HTTP/1.1',
        headers: [{ name: 'content-type', value: 'application/json' }, ...headers],
        cookies: [],
        content: { size: text.length, mimeType: 'application/json', text },
        redirectURL: '',
        headersSize: -1,
        bodySize: -1,
      },
      cache: {},
      timings: { send: 0, wait: 1, receive: 0 },
    });
    const har = {
      log: {
        version: '1.2',
        creator: { name: 'test', version: '1' },
        entries: [
          entry(200, []),
          // Charles, mitmproxy and Playwright write decoded header text.
          entry(200, [{ name: 'x-title', value: '日本語' }]),
          entry(200, [{ name: 'x-echo', value: 'a\r\nSet-Cookie: b=c' }]),
          entry(200, [{ name: 'bad name', value: 'a' }]),
          entry(103, [{ name: 'link', value: '</a.css>; rel=preload' }], ''),
          entry(304, [], '{"data":[]}'),
          entry(204, [], ''),
        ],
      },
    };
    const file = join(tempDir(), 'decoded.har');
    writeFileSync(file, JSON.stringify(har));
    const out = tempDir();
    const { code, stdout, stderr } = await runCli(['import', file, '--out', out]);
    expect(stderr).not.toMatch(/\n\s+at /);
    expect(code).toBe(0);
    const url = 'http://api\\.example\\.com/api/g1/meta/cp';
    expect(stdout).toMatch(
      new RegExp(`^skipped ${url}: response\\.headers\\["x-title"\\]: "x-title" has .*above U\\+00FF`, 'm'),
    );
    expect(stdout).toMatch(
      new RegExp(`^skipped ${url}: response\\.headers\\["x-echo"\\]: "x-echo" has a control character`, 'm'),
    );
    expect(stdout).toMatch(
      new RegExp(`^skipped ${url}: response\\.headers\\["bad name"\\]: "bad name" is not a header name`, 'm'),
    );
    expect(stdout).toMatch(new RegExp(`^skipped ${url}: response\\.status: 103 is an interim answer`, 'm'));
    expect(stdout).toMatch(new RegExp(`^skipped ${url}: response\\.body: a 304 answer has no body`, 'm'));
    expect(stdout).toMatch(/^Imported 2 recordings into .*, skipped 5$/m);
    expect(recordingFiles(out)).toHaveLength(2);
    const validate = await runCli(['validate', out]);
    expect(validate.stdout).toMatch(/^2 of 2 recordings/m);
    expect(validate.code).toBe(0);
  });
});

/** Made-up content of a file outside the folder, which no error may show. */
const OUTSIDE_CONTENT = 'made-up-private-line-0451 of a file outside the folder';

describe('a recording that is not a regular file', () => {
  it.skipIf(!canMakeFifo)(
    'a FIFO named like a recording: validate and replay refuse it at once, without reading it',
    async () => {
      const dir = folderWith(recordingWith());
      const fifo = `meta-cp/${'0'.repeat(12)}-000.json`;
      makeFifo(join(dir, fifo));
      const validate = await runCli(['validate', dir], { timeoutMs: 20_000 });
      expect(validate.stdout).toContain(`✗ ${join(dir, fifo)}: not a regular file (a FIFO)`);
      expect(validate.code).toBe(1);
      const replay = await runCli(['replay', dir, '--port', '0'], { timeoutMs: 20_000 });
      expect(replay.stderr).toContain(`  ${fifo}: not a regular file (a FIFO)`);
      expect(replay.code).toBe(2);
    },
  );

  it('a symbolic link leaving the folder is refused, and its target is never shown', async () => {
    const dir = folderWith(recordingWith());
    const outside = join(tempDir(), 'private.txt');
    writeFileSync(outside, OUTSIDE_CONTENT);
    const link = `meta-cp/${'1'.repeat(12)}-000.json`;
    symlinkSync(outside, join(dir, link));
    const validate = await runCli(['validate', dir]);
    expect(validate.stdout).toContain(`✗ ${join(dir, link)}: a symbolic link leading outside the recording folder`);
    expect(validate.stdout + validate.stderr).not.toContain('made-up-private');
    expect(validate.code).toBe(1);
    const replay = await runCli(['replay', dir, '--port', '0']);
    expect(replay.stderr).toContain(`  ${link}: a symbolic link leading outside the recording folder`);
    expect(replay.stderr + replay.stdout).not.toContain('made-up-private');
    expect(replay.code).toBe(2);
  });

  it('a symbolic link inside the folder is read as the file it names', async () => {
    const dir = folderWith(recordingWith());
    const inside = join(dir, 'kept.txt');
    const query: Array<[string, string]> = [['ref', 'linked']];
    writeFileSync(
      inside,
      formatRecording(
        recordingWith((r) => {
          r.request.query = query;
          r.matchKey = matchKey('GET', 'meta/cp', query, DEFAULT_POLICY);
        }),
      ),
    );
    symlinkSync(inside, join(dir, `meta-cp/${'2'.repeat(12)}-000.json`));
    const validate = await runCli(['validate', dir]);
    expect(validate.stdout).toMatch(/^2 of 2 recordings/m);
  });

  it('a recording that is not JSON: the problem never shows its text', async () => {
    const dir = folderWith(recordingWith());
    writeFileSync(join(dir, FILE), `${OUTSIDE_CONTENT} {`);
    const validate = await runCli(['validate', dir]);
    expect(validate.stdout).toMatch(/: invalid JSON \(line 1, column 1\): unexpected character$/m);
    expect(validate.stdout + validate.stderr).not.toContain('made-up-private');
    const replay = await runCli(['replay', dir, '--port', '0']);
    expect(replay.stderr).toMatch(/: invalid JSON \(line 1, column 1\): unexpected character$/m);
    expect(replay.stderr + replay.stdout).not.toContain('made-up-private');
    expect(replay.code).toBe(2);
  });
});

describe('a scenario file that is not what it seems', () => {
  it('a symbolic link leaving the scenario folder is refused, its target never shown', async () => {
    const dir = tempDir('mockvideo-scn-');
    const outside = join(tempDir(), 'private.txt');
    writeFileSync(outside, OUTSIDE_CONTENT);
    symlinkSync(outside, join(dir, 'linked.json'));
    const { code, stdout, stderr } = await runCli(['validate', dir]);
    expect(stdout).toContain('linked.json: a symbolic link leading outside the scenario folder');
    expect(stdout + stderr).not.toContain('made-up-private');
    expect(code).toBe(1);
    const serve = await runCli(['serve', '--scenarios-dir', dir, '--port', '0']);
    expect(serve.stderr).toContain('linked.json: a symbolic link leading outside the scenario folder');
    expect(serve.stdout + serve.stderr).not.toContain('made-up-private');
  });

  it('a scenario file that is not JSON: the problem names the line and column, never the text', async () => {
    const dir = tempDir('mockvideo-scn-');
    writeFileSync(join(dir, 'broken.json'), `{"operations": {}}\n${OUTSIDE_CONTENT}`);
    const { code, stdout, stderr } = await runCli(['validate', dir]);
    expect(stdout).toMatch(
      /broken\.json: invalid JSON \(line 2, column 1\): Unexpected non-whitespace character after JSON$/m,
    );
    expect(stdout + stderr).not.toContain('made-up-private');
    expect(code).toBe(1);
  });

  it.skipIf(!canMakeFifo)('a FIFO in a scenario folder is refused at once', async () => {
    const dir = tempDir('mockvideo-scn-');
    makeFifo(join(dir, 'waiting.json'));
    const { code, stdout } = await runCli(['validate', dir], { timeoutMs: 20_000 });
    expect(stdout).toContain('waiting.json: not a regular file (a FIFO)');
    expect(code).toBe(1);
  });
});

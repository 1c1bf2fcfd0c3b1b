// Issue 39 H4: the contract's deep links nest percent-encoded links (`default`, `back_scheme`), so
// an upstream that echoes `_st` inside a nested link writes it percent-encoded twice. Recorded
// through `mockvideo record` from an upstream on 127.0.0.1, no form docs/recording-safety.md names
// (raw, percent-encoded once or twice, either hex case, `+` for a space) survives in any file
// written, the journal, its HAR, `mockvideo export --har` or the log.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDeepLink, operationOfPath } from '../../src/contract/index.js';
import { runCli, startCli } from '../support/cli.js';
import { removeTempDirs, tempDir } from '../support/recordings.js';
import { clientPathWith } from '../support/sessions.js';

/** A made-up token with the characters that encode differently: `/ + = & %` and a space. */
const TOKEN = 'made-up/tok+en=v&x%y 42';

/** Percent-escapes in lower-case hex, also those encoded twice (`%252F` → `%252f`). */
const lower = (text: string) => text.replace(/%(?:25)?[0-9A-F]{2}/g, (e) => e.toLowerCase());
const once = encodeURIComponent(TOKEN);
const form = once.replace(/%20/g, '+');
const twice = encodeURIComponent(once);

/** Every form of the token that may not be written anywhere. */
const FORBIDDEN: Record<string, string> = {
  raw: TOKEN,
  once,
  onceLower: lower(once),
  form,
  twice,
  twiceLower: lower(twice),
  twiceForm: encodeURIComponent(form),
};

const holds = (text: string) => Object.entries(FORBIDDEN).filter(([, form]) => text.includes(form));

/** The localplay/recomm item the upstream answers: the token inside `default` and `back_scheme`, each a nested link. */
function itemWith(token: string) {
  const inner = (host: string, name: string) =>
    buildDeepLink({
      scheme: 'mv',
      host,
      query: [
        ['action', 'open'],
        [name, token],
        ['ref', 'x'],
      ],
    });
  return {
    id: 'V-cp1-a1',
    title: 'Nested',
    duration: 60,
    image_url: 'https://img.example.com/a1.jpg',
    order: 1,
    type: 'video',
    target: buildDeepLink({
      scheme: 'mv',
      host: 'com.example.cp1',
      query: [
        ['action', 'playVideo'],
        // A link nested twice: `session` → `default` → `back_scheme`.
        ['default', inner('com.example.cp1', 'session')],
        ['back_scheme', buildDeepLink({ scheme: 'mv', host: 'back', query: [['next', inner('back', '_st')]] })],
        ['ref', 'LOCALRECOMM'],
      ],
    }),
    target_addition: [],
    top_left_logo: '',
    top_right_logo: '',
  };
}

let upstream: Server;
let upstreamUrl: string;

beforeAll(async () => {
  upstream = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const token = url.searchParams.get('_st') ?? '';
    const item = itemWith(token);
    const body = operationOfPath(url.pathname) === 'localplay/recomm' ? [item] : { link: item.target };
    const text = JSON.stringify({ data: body, msg: 'OK', result: 1 }).replace(/&/g, '\\u0026');
    res.writeHead(302, {
      'content-type': 'application/json; charset=utf-8',
      location: item.target,
      'x-deep-link': lower(item.target),
      'x-default': buildDeepLink({ scheme: 'mv', host: 'h', query: [['token', token]] }),
    });
    res.end(text);
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => upstream.close(() => resolve()));
  removeTempDirs();
});

/** Every file under `dir` (recordings and the folder's own files), as `[name, text]`. */
function everyFile(dir: string, under = ''): Array<[string, string]> {
  return readdirSync(join(dir, under)).flatMap((name) => {
    const path = join(dir, under, name);
    return statSync(path).isDirectory()
      ? everyFile(dir, join(under, name))
      : [[join(under, name), readFileSync(path, 'utf8')] as [string, string]];
  });
}

describe('a token echoed inside nested deep links (issue 39 H4)', () => {
  it('is in no file, journal, HAR export or log, in any form the docs name', async () => {
    // The test's own forms are what an echo of a nested link writes.
    expect(itemWith(TOKEN).target).toContain(twice);
    const dir = tempDir();
    const recorder = await startCli(['record', '--upstream', upstreamUrl, '--out', dir, '--port', '0']);
    let journal: string;
    let har: string;
    try {
      for (const operation of ['localplay/recomm', 'ad_config'] as const) {
        const answer = await fetch(`${recorder.url}${clientPathWith(operation, { _st: once })}`, {
          redirect: 'manual',
        });
        expect(answer.status, operation).toBe(302);
        // The client gets the upstream's answer as it came.
        expect(answer.headers.get('location')).toContain(twice);
      }
      journal = await (await fetch(`${recorder.url}/__mockvideo/requests`)).text();
      for (const { id } of JSON.parse(journal).requests as Array<{ id: number }>)
        journal += await (await fetch(`${recorder.url}/__mockvideo/requests/${id}`)).text();
      har = await (await fetch(`${recorder.url}/__mockvideo/requests.har`)).text();
    } finally {
      expect(await recorder.stop('SIGINT')).toBe(0);
    }
    const files = everyFile(dir);
    expect(files.filter(([name]) => name.endsWith('.json'))).toHaveLength(2);
    for (const [name, text] of files) expect(holds(text), name).toEqual([]);
    expect(holds(journal), 'journal').toEqual([]);
    expect(holds(har), 'requests.har').toEqual([]);
    expect(holds(recorder.stdout() + recorder.stderr()), 'log').toEqual([]);
    expect(recorder.stdout()).toMatch(/redacted .*_st in response\.headers\.location \(percent\)/);

    const exported = join(tempDir(), 'session.har');
    const exporting = await runCli(['export', dir, '--har', exported]);
    expect(exporting.code).toBe(0);
    expect(holds(readFileSync(exported, 'utf8')), 'mockvideo export --har').toEqual([]);
  });
});

// One behaviour suite for every adapter of the routes (in the spirit of Polly's shared adapter
// tests and http-middleware's reusing-handlers test): the same exchanges, in the same order, go to
// the adapter under test and to a reference (msw's getResponse over the package's own handlers,
// in-process); status, headers and body bytes must be the same, and an adapter with a journal must
// journal each exchange with an operation as its answer says. Run by test/operations/*.test.ts.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { getResponse, type HttpHandler } from 'msw';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATION_NAMES, OPERATIONS, type OperationName } from '../src/contract/index.js';
import { FaultBoard } from '../src/faults/board.js';
import { parseFaultFlag } from '../src/faults/plan.js';
import { planOf, routeHandlers } from '../src/msw/adapter.js';
import { DEFAULT_POLICY, queryValues } from '../src/normalise/index.js';
import { parseRecording } from '../src/normalise/recording-schema.js';
import { Replayer } from '../src/replay/replayer.js';
import { loadRecordingIndex } from '../src/storage/load-recordings.js';
import { createHandlers, createScenarioHandlers } from '../src/msw/handlers.js';
import { createReplayHandlers } from '../src/node.js';
import { requestFindings } from '../src/findings/index.js';
import { forwardPath, routeOf } from '../src/normalise/path.js';
import type { Plan } from '../src/routes/request.js';
import { loadScenarioCatalog } from '../src/storage/load-catalog.js';
import { clientPath } from './support/client.js';
import { minimalScenario } from './support/minimal-scenario.js';
import { recordSession } from './support/recordings.js';
import { startUpstream, type Upstream } from './support/upstream.js';

/** One request: method, path with query (origin-relative) and headers. */
export interface Exchange {
  method: 'GET' | 'HEAD' | 'POST';
  path: string;
  headers?: Record<string, string>;
}

/** What a client sees: status, the answer's headers (sorted; not the transport's own), body bytes as hex; `reset` for a connection closed without an answer. */
export type Seen = { status: number; headers: Record<string, string>; body: string } | 'reset';

/** A journal entry as the suite compares it. */
export interface Journaled {
  operation: string;
  status: number;
  scenario: string | null;
  match: string | null;
  fault: string | null;
  /** The sequence step (`x-mockvideo-step`), or `null`. */
  step: string | null;
  findings: number;
}

/** How the mockvideo under test is set up: `serve` with the suite's scenarios (and `--fault` flags), `replay` of a recorded folder, or `record` from a fake upstream on 127.0.0.1. */
export type SuiteConfig =
  | { mode: 'serve'; scenariosDir: string; faults: readonly string[]; strictRequests?: boolean }
  | {
      mode: 'replay';
      dir: string;
      match: 'strict' | 'nearest';
      fallbackScenario?: string;
      faults?: readonly string[];
      strictRequests?: boolean;
    }
  | { mode: 'record'; upstream: string; out: string };

/** A running mockvideo under test. `origin` is written `{origin}` in bodies before comparing. */
export interface Target {
  origin: string;
  send(exchange: Exchange): Promise<Seen>;
  /** The journal entries so far (adapters with a journal). */
  journal?(): Promise<Journaled[]>;
  /** The plan of the last exchange sent, where the target can read it (msw's: from the request, see `planOf`). */
  planned?(): Plan | undefined;
  close(): Promise<void>;
}

/** An adapter under test. */
export interface Subject {
  name: string;
  start(config: SuiteConfig): Promise<Target>;
  /** Run the representative subset only (slow adapters: the browser). */
  subset?: boolean;
  /** It runs `mockvideo record` too (the Node host: the recorder has no other adapter). */
  record?: boolean;
}

/**
 * Headers HTTP/1.1 framing adds or changes, not part of the answer (msw's Response has none of
 * them). `content-length` is compared: a target without a wire gives the length of its body (the
 * GET answer's, for HEAD), see {@link withLength}.
 */
export const TRANSPORT = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

/**
 * `headers` with the `content-length` a Node host sends for an answer of `status` whose body is
 * `bytes` (none for 204 and 304), for targets whose answer has no wire of its own (msw's
 * `getResponse`, a page's `fetch`).
 */
export function withLength(headers: Record<string, string>, status: number, bytes: Uint8Array): Record<string, string> {
  if (status === 204 || status === 304) return headers;
  return answerHeaders([...Object.entries(headers), ['content-length', String(bytes.byteLength)]]);
}

/** A header list (Node's or fetch's) without the transport's own, sorted by name. */
export function answerHeaders(headers: Iterable<readonly [string, string]>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of headers) if (!TRANSPORT.has(name.toLowerCase())) out[name.toLowerCase()] = value;
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => a.localeCompare(b)));
}

/** The body bytes as hex, with `origin` written `{origin}` (two servers listen on different ports). */
export function bodyOf(bytes: Uint8Array, origin: string): string {
  return Buffer.from(Buffer.from(bytes).toString('latin1').split(origin).join('{origin}'), 'latin1').toString('hex');
}

/**
 * A target over msw's `getResponse` (the reference, and the msw adapter under test). HEAD is asked
 * as GET (the routes answer both alike) for its length, and its body dropped, as a Node host does.
 */
export function mswTarget(handlers: readonly HttpHandler[], origin = 'http://mockvideo.test'): Target {
  let last: Plan | undefined;
  return {
    origin,
    planned: () => last,
    send: async (exchange) => {
      const request = new Request(`${origin}${exchange.path}`, {
        method: exchange.method === 'HEAD' ? 'GET' : exchange.method,
        headers: exchange.headers ?? {},
      });
      const response = await getResponse([...handlers], request);
      last = planOf(request);
      if (!response) throw new Error(`no handler answered ${exchange.path}`);
      if (response.type === 'error') return 'reset';
      const bytes = new Uint8Array(await response.arrayBuffer());
      return {
        status: response.status,
        headers: withLength(answerHeaders(response.headers.entries()), response.status, bytes),
        body: bodyOf(exchange.method === 'HEAD' ? new Uint8Array() : bytes, origin),
      };
    },
    close: async () => {},
  };
}

/**
 * The reference of `record` from an upstream: what the routes pass on (a GET or HEAD of an operation
 * or `meta/upgrade`) is the upstream's answer at the route's own path (`forwardPath`), with the
 * findings count the host adds; everything else is what `serve` answers (405, 404, 414).
 * `upstream` must be a twin of the recorder's (the same answers to the same requests, in order).
 */
export function recordReference(upstream: string): Target {
  const serve = mswTarget(
    referenceHandlers({ mode: 'serve', scenariosDir: mkdtempSync(join(tmpdir(), 'mockvideo-suite-')), faults: [] }),
  );
  return {
    origin: serve.origin,
    send: async (exchange) => {
      const [path, query] = exchange.path.split('#')[0]!.split(/\?(.*)/s) as [string, string | undefined];
      const route = routeOf(path);
      const forwarded = forwardPath(route);
      if (
        forwarded === undefined ||
        (exchange.method !== 'GET' && exchange.method !== 'HEAD') ||
        exchange.path.length > 8192
      )
        return serve.send(exchange);
      const response = await fetch(`${upstream}${forwarded}${query === undefined ? '' : `?${query}`}`, {
        method: exchange.method,
        headers: exchange.headers ?? {},
      });
      const headers = [...response.headers.entries()];
      // mockvideo's own headers on every device answer replace the upstream's (docs/security.md, "Served bodies").
      headers.push(['x-content-type-options', 'nosniff'], ['content-security-policy', "sandbox; default-src 'none'"]);
      if (route.kind === 'operation') {
        const nowSeconds = Math.floor(Date.now() / 1000);
        const findings = requestFindings({ operation: route.operation, query: queryValues(query ?? ''), nowSeconds });
        headers.push(['x-mockvideo-findings', String(findings.length)]);
      }
      // The upstream's own framing is passed on: its content-length (a HEAD answer's too), or none when chunked.
      const bytes = new Uint8Array(await response.arrayBuffer());
      return {
        status: response.status,
        headers: answerHeaders(headers),
        body: bodyOf(bytes, upstream),
      };
    },
    close: async () => {},
  };
}

/** The package's own handlers for a config: the reference every adapter is held to. */
export function referenceHandlers(config: SuiteConfig): HttpHandler[] {
  if (config.mode === 'record') throw new Error('record has no MSW handlers: its reference is recordReference');
  const catalog = loadScenarioCatalog(config.mode === 'serve' ? config.scenariosDir : undefined);
  if (config.mode === 'serve') {
    const faults = new FaultBoard();
    for (const flag of config.faults) faults.add(parseFaultFlag(flag));
    const strict = config.strictRequests ?? false;
    return createScenarioHandlers(catalog, { activeScenario: () => 'default', faults, strictRequests: () => strict });
  }
  const fallback = config.fallbackScenario
    ? createScenarioHandlers(catalog, { activeScenario: () => config.fallbackScenario! })
    : undefined;
  if (!config.faults?.length && !config.strictRequests)
    return createReplayHandlers(config.dir, { match: config.match, ...(fallback ? { fallback } : {}) });
  // Faults and strict requests: the routes options replay builds, as the MSW adapter's handlers.
  const { index } = loadRecordingIndex(config.dir, DEFAULT_POLICY, { parse: parseRecording });
  const faults = new FaultBoard();
  for (const flag of config.faults ?? []) faults.add(parseFaultFlag(flag));
  const strict = config.strictRequests ?? false;
  return routeHandlers({
    replay: { replayer: new Replayer(index, { match: config.match }), faults },
    strictRequests: () => strict,
  });
}

/** A scenario that uses every feature: sequences, `when`, header spelling, `{origin}`, stub faults, faults with a rate. */
function suiteScenario() {
  const base = minimalScenario();
  const ops = base.operations as Record<string, unknown>;
  ops.ad_config = [
    {
      when: { query: { _region: 'DE' } },
      data: { region: 'DE' },
      headers: { 'X-Region': '  de  ', 'Cache-Control': 'no-store' },
    },
    {
      data: { enabled: true, icon: '{origin}/__mockvideo/media/icon/1.png' },
      headers: { 'Content-Type': 'application/json', 'x-a': '1' },
    },
  ];
  ops['meta/cp'] = {
    sequence: [
      ops['meta/cp'],
      { ...(ops['meta/cp'] as object), status: 500, msg: 'busy', result: 0 },
      { fault: { kind: 'malformed-json' } },
      { fault: { kind: 'envelope', result: 7 } },
    ],
  };
  ops['meta/setting'] = { ...(ops['meta/setting'] as object), fault: { kind: 'delay', ms: 15 } };
  ops['meta/plugin'] = {
    ...(ops['meta/plugin'] as object),
    fault: { kind: 'status', status: 503, rate: 0.5, seed: 3 },
  };
  return { ...base, faults: { 'localplay/recomm': { kind: 'empty', rate: 0.3 } } };
}

/** A folder with the suite's scenario `suite.json` (the shipped ones come with it). */
function scenariosDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mockvideo-suite-'));
  writeFileSync(join(dir, 'suite.json'), JSON.stringify(suiteScenario()));
  return dir;
}

/** The shipped scenarios whose answers do not hang or reset the connection (those are exercised by name below). */
const SHIPPED = [
  'default',
  'gallery',
  'non-gallery',
  'empty-ad-config',
  'no-recommendations',
  'i18n-stress',
  'plugin-upgrade',
  'corrupt-plugin',
  'server-error',
  'settings-twice',
];

/**
 * The journal entry an answer makes for a request to an operation (see `journalExchange`): what its
 * headers say; for a reset (no headers), what the reference planned (its plan's facts).
 */
function expectedEntry(operation: OperationName, seen: Seen, planned: Plan | undefined): Journaled {
  if (seen === 'reset')
    return {
      operation,
      status: 0,
      scenario: planned?.scenario ?? null,
      match: planned?.match ?? null,
      fault: planned?.fault ?? null,
      step: planned?.step ?? null,
      findings: -1,
    };
  return {
    operation,
    status: seen.status,
    scenario: seen.headers['x-mockvideo-scenario'] ?? null,
    match: seen.headers['x-mockvideo-match'] ?? null,
    fault: seen.headers['x-mockvideo-fault'] ?? null,
    step: seen.headers['x-mockvideo-step'] ?? null,
    findings: Number(seen.headers['x-mockvideo-findings'] ?? -1),
  };
}

/** The operation an exchange's path goes to (the path rule's own property test covers the rule). */
function operationOf(path: string): OperationName | undefined {
  const route = routeOf(path.split(/[?#]/)[0]!);
  return route.kind === 'operation' ? route.operation : undefined;
}

/**
 * Registers the suite for `subject`: each `describe` starts the subject and a reference with one
 * config, sends the same exchanges to both in order, and compares.
 */
export function operationsSuite(subject: Subject): void {
  const dir = scenariosDir();

  function withTargets(
    config: () => SuiteConfig | Promise<SuiteConfig>,
    body: (expectSame: (exchanges: readonly Exchange[]) => Promise<Seen[]>) => void,
    referenceOf?: (origin: string) => Target,
  ) {
    let target: Target;
    let reference: Target;
    let journaled = 0;
    beforeAll(async () => {
      const ready = await config();
      target = await subject.start(ready);
      // The reference answers on the target's origin: bodies with {origin} in them are the same bytes, the same length.
      reference = referenceOf?.(target.origin) ?? mswTarget(referenceHandlers(ready), target.origin);
    }, 60_000);
    afterAll(() => target?.close());
    body(async (exchanges) => {
      const seen: Seen[] = [];
      const expectedJournal: Journaled[] = [];
      for (const exchange of exchanges) {
        const [actual, expected] = [await target.send(exchange), await reference.send(exchange)];
        const label = `${exchange.method} ${exchange.path} ${JSON.stringify(exchange.headers ?? {})}`;
        expect(actual, label).toEqual(
          expected === 'reset'
            ? 'reset'
            : {
                ...expected,
                body: expected.body
                  .split(Buffer.from(reference.origin).toString('hex'))
                  .join(Buffer.from('{origin}').toString('hex')),
              },
        );
        seen.push(actual);
        const operation = operationOf(exchange.path);
        // Every answer to an operation's path is journaled, the host's checks (414) included (issue 32.2).
        if (operation) expectedJournal.push(expectedEntry(operation, expected, reference.planned?.()));
      }
      if (target.journal) {
        // Entries are added when an exchange ends, which a reset makes asynchronous.
        await new Promise((resolve) => setTimeout(resolve, 50));
        const entries = (await target.journal()).slice(journaled);
        journaled += entries.length;
        expect(entries.map((e) => ({ ...e, findings: e.status === 0 ? -1 : e.findings }))).toEqual(expectedJournal);
      }
      return seen;
    });
  }

  describe(`${subject.name}: serve`, () => {
    withTargets(
      () => ({ mode: 'serve', scenariosDir: dir, faults: ['localplay/recomm=status:502'] }),
      (expectSame) => {
        it('every operation of every shipped scenario, by prefix and by header, GET and HEAD', async () => {
          const exchanges: Exchange[] = [];
          for (const scenario of subject.subset ? ['gallery', 'corrupt-plugin'] : SHIPPED) {
            for (const operation of OPERATION_NAMES) {
              exchanges.push({ method: 'GET', path: `/scenarios/${scenario}${clientPath(operation)}` });
              if (!subject.subset)
                exchanges.push({
                  method: 'GET',
                  path: clientPath(operation),
                  headers: { 'x-mockvideo-scenario': scenario },
                });
            }
          }
          for (const operation of OPERATION_NAMES) exchanges.push({ method: 'HEAD', path: clientPath(operation) });
          const seen = await expectSame(exchanges);
          // The server-wide --fault takes every localplay/recomm request, whatever the scenario.
          const recomm = exchanges.flatMap((e, i) => (e.path.includes('/localplay/recomm') ? [seen[i]!] : []));
          expect(recomm.map((s) => (s === 'reset' ? 0 : [s.status, s.headers['x-mockvideo-fault']]))).toEqual(
            recomm.map(() => [502, 'status']),
          );
          expect(seen.filter((s) => s !== 'reset' && s.headers['x-mockvideo-findings'] === '0').length).toBe(
            seen.length,
          );
        });

        it('sequences, `when` conditions, header spelling, {origin}, stub faults and rate faults, in order', async () => {
          const exchanges: Exchange[] = [];
          for (let round = 0; round < (subject.subset ? 3 : 8); round++) {
            for (const operation of OPERATION_NAMES)
              exchanges.push({ method: 'GET', path: `/scenarios/suite${clientPath(operation)}` });
            exchanges.push({ method: 'GET', path: '/scenarios/suite/api/g1/ad_config?_region=DE&_region=IN' });
          }
          const seen = await expectSame(exchanges);
          const faults = new Set(
            seen.map((s) => (s === 'reset' ? 'reset' : s.headers['x-mockvideo-fault'])).filter(Boolean),
          );
          for (const kind of subject.subset
            ? ['delay', 'malformed-json']
            : ['delay', 'status', 'malformed-json', 'envelope'])
            expect(faults, kind).toContain(kind);
        });

        it('connection faults: reset and hang-free scenarios named by header', async () => {
          const seen = await expectSame([
            { method: 'GET', path: clientPath('meta/cp'), headers: { 'x-mockvideo-scenario': 'connection-reset' } },
            { method: 'GET', path: clientPath('meta/setting') },
          ]);
          expect(seen[1]).not.toBe('reset');
        });

        it('sequences per device: two devices interleaving against settings-twice each get the first answer, then the second (issue 18)', async () => {
          const asDevice = (device: string): Exchange => ({
            method: 'GET',
            path: `/scenarios/settings-twice${clientPath('meta/setting').replace(/_sdevid=[0-9a-f]+/, `_sdevid=${device.repeat(64)}`)}`,
          });
          const seen = await expectSame([asDevice('a'), asDevice('b'), asDevice('a'), asDevice('b'), asDevice('b')]);
          expect(seen.map((s) => (s === 'reset' ? 'reset' : s.headers['x-mockvideo-step']))).toEqual([
            '1/2',
            '1/2',
            '2/2',
            '2/2',
            '2/2',
          ]);
        });

        it('error answers: unknown scenario (prefix and header), other methods, unknown operations', async () => {
          await expectSame([
            { method: 'GET', path: '/scenarios/nope/api/g1/meta/cp' },
            { method: 'GET', path: '/api/g1/meta/cp', headers: { 'x-mockvideo-scenario': ' gallery ' } },
            { method: 'GET', path: '/api/g1/meta/cp', headers: { 'x-mockvideo-scenario': 'No Such' } },
            { method: 'POST', path: '/api/g1/meta/cp' },
            { method: 'GET', path: '/api/g1/meta/nothing' },
            { method: 'GET', path: `/api/g1/meta/cp?_eset=${'x'.repeat(8200)}` },
          ]);
        });

        it('odd spellings of paths: encoded scenario names, dot segments, trailing slash, double slashes', async () => {
          await expectSame([
            { method: 'GET', path: '/api/g1/meta/cp/' },
            { method: 'GET', path: '/scenarios/gal%6cery/api/g1/meta/cp' },
            { method: 'GET', path: '/scenarios/gallery/x/../api/g1/meta/cp' },
            { method: 'GET', path: '/scenarios/gallery/api/g1/meta/cp#fragment' },
            { method: 'GET', path: '/scenarios/gallery//api/g1//localplay/diversion?is_from_gallery=true' },
            { method: 'GET', path: '/api/g1/%6Deta/setting' },
          ]);
        });

        it('meta/upgrade, placeholder images, plugin and provider packages', async () => {
          const seen = await expectSame([
            {
              method: 'GET',
              path: '/scenarios/plugin-upgrade/api/g1/meta/upgrade?uri=videoplayer%3A%2F%2Fplayer-plugin%2Fstreamly%2F1',
            },
            { method: 'GET', path: '/api/g1/meta/upgrade' },
            { method: 'POST', path: '/api/g1/meta/upgrade' },
            { method: 'GET', path: '/__mockvideo/media/thumb/streamly/sv1001.jpg' },
            { method: 'GET', path: '/__mockvideo/media/icon/cinebox.png?size=32x32&label=7' },
            { method: 'GET', path: '/__mockvideo/media/icon/x.gif' },
            { method: 'GET', path: '/__mockvideo/plugins' },
            { method: 'GET', path: '/__mockvideo/plugins/nope.apk' },
            { method: 'GET', path: '/__mockvideo/apk/cinebox.apk' },
            { method: 'HEAD', path: '/__mockvideo/apk/a%22%3B%20filename%3Devil.apk' },
          ]);
          expect(seen.map((s) => (s === 'reset' ? 0 : s.status))).toEqual([
            200, 400, 405, 200, 200, 404, 200, 404, 200, 200,
          ]);
        });

        it.skipIf(subject.subset)('any query string: the same answer, findings and journal entry', async () => {
          const char = fc.constantFrom(
            'a',
            'Z',
            '0',
            '_',
            '-',
            '.',
            '~',
            '%20',
            '%2B',
            '+',
            '%',
            '%zz',
            '%E2%82%AC',
            '€',
            '=',
            '"',
            "'",
            '<',
            '(',
            '!',
            '*',
            ',',
            ';',
            ':',
            '@',
            '/',
            '?',
            '[',
            '%00',
            'é',
          );
          const text = fc.array(char, { maxLength: 6 }).map((parts) => parts.join(''));
          const name = fc.oneof(
            fc.constantFrom(
              '_region',
              'is_from_gallery',
              'ref',
              '_ts',
              '_st',
              '_sdevid',
              'valueOf',
              '__proto__',
              'constructor',
            ),
            text,
          );
          const query = fc
            .array(fc.tuple(name, fc.option(text, { nil: undefined })), { maxLength: 8 })
            .map((pairs) => pairs.map(([k, v]) => (v === undefined ? k : `${k}=${v}`)).join('&'));
          await fc.assert(
            fc.asyncProperty(fc.constantFrom<OperationName>(...OPERATION_NAMES), query, async (operation, search) => {
              await expectSame([
                { method: 'GET', path: encodeURI(`${OPERATIONS[operation].path}?${search}`).replace(/%25/g, '%') },
              ]);
            }),
            { numRuns: 30 },
          );
        });
      },
    );
  });

  describe.skipIf(subject.subset)(`${subject.name}: serve --strict-requests`, () => {
    withTargets(
      () => ({ mode: 'serve', scenariosDir: dir, faults: [], strictRequests: true }),
      (expectSame) => {
        it('answers a request with findings 400, one without them as usual', async () => {
          const seen = await expectSame([
            { method: 'GET', path: '/api/g1/meta/cp?x=1' },
            { method: 'GET', path: clientPath('meta/cp') },
          ]);
          expect(seen.map((s) => (s === 'reset' ? 0 : s.status))).toEqual([400, 200]);
        });
      },
    );
  });

  for (const [match, fallbackScenario] of [
    ['strict', undefined],
    ['nearest', undefined],
    ['strict', 'gallery'],
  ] as const) {
    describe.skipIf(subject.subset)(
      `${subject.name}: replay --match ${match}${fallbackScenario ? ` --fallback-scenario ${fallbackScenario}` : ''}`,
      () => {
        let upstream: Upstream | undefined;
        afterAll(() => upstream?.close());
        withTargets(
          async () => {
            upstream = await startUpstream();
            const { dir: recorded } = await recordSession(upstream.url, [
              clientPath('meta/cp'),
              clientPath('meta/setting'),
              clientPath('meta/setting'),
              clientPath('localplay/diversion', { is_from_gallery: 'true' }),
            ]);
            return { mode: 'replay', dir: recorded, match, ...(fallbackScenario ? { fallbackScenario } : {}) };
          },
          (expectSame) => {
            it('exact matches (sequences in order), misses, other methods and paths, the near-miss table', async () => {
              const seen = await expectSame([
                { method: 'GET', path: clientPath('meta/cp') },
                { method: 'GET', path: clientPath('meta/setting') },
                { method: 'GET', path: clientPath('meta/setting') },
                { method: 'GET', path: clientPath('meta/setting') },
                { method: 'HEAD', path: clientPath('meta/cp') },
                { method: 'GET', path: clientPath('localplay/diversion', { is_from_gallery: 'false' }) },
                {
                  method: 'GET',
                  path: clientPath('localplay/diversion', { is_from_gallery: 'false' }),
                  headers: { accept: 'text/plain' },
                },
                { method: 'GET', path: clientPath('ad_config') },
                { method: 'POST', path: clientPath('meta/cp') },
                { method: 'GET', path: '/api/g1/meta/nothing' },
              ]);
              const matches = seen.map((s) => (s === 'reset' ? 'reset' : (s.headers['x-mockvideo-match'] ?? s.status)));
              expect(matches.slice(0, 5)).toEqual(['exact', 'exact', 'exact', 'exact', 'exact']);
              expect(matches[5]).toBe(fallbackScenario ? 'fallback' : match === 'nearest' ? 'nearest' : 404);
            });
          },
        );
      },
    );
  }

  describe.skipIf(subject.subset)(`${subject.name}: replay --fault and --strict-requests (issue 40)`, () => {
    let upstream: Upstream | undefined;
    afterAll(() => upstream?.close());
    withTargets(
      async () => {
        upstream = await startUpstream();
        const { dir: recorded } = await recordSession(upstream.url, [
          clientPath('meta/cp'),
          clientPath('meta/setting'),
        ]);
        return {
          mode: 'replay',
          dir: recorded,
          match: 'strict',
          faults: ['meta/cp=status:503', 'meta/setting=malformed-json', 'ad_config=reset'],
          strictRequests: true,
        };
      },
      (expectSame) => {
        it('a fault changes the recording that matched; a request with findings gets 400; HEAD as GET', async () => {
          const seen = await expectSame([
            { method: 'GET', path: clientPath('meta/cp') },
            { method: 'HEAD', path: clientPath('meta/setting') },
            { method: 'GET', path: clientPath('meta/setting') },
            { method: 'GET', path: clientPath('ad_config') },
            { method: 'GET', path: '/api/g1/meta/cp?x=1' },
          ]);
          const status = (s: Seen | undefined) =>
            s === 'reset' || !s ? s : [s.status, s.headers['x-mockvideo-fault']];
          expect(seen.map(status)).toEqual([
            [503, 'status'],
            [200, 'malformed-json'],
            [200, 'malformed-json'],
            'reset',
            [400, undefined],
          ]);
        });
      },
    );
  });

  describe.skipIf(!subject.record)(`${subject.name}: record`, () => {
    // Two twin fake upstreams: the recorder's, and the reference's (the same answers to the same requests, in order).
    let upstream: Upstream | undefined;
    let twin: Upstream | undefined;
    afterAll(() => Promise.all([upstream?.close(), twin?.close()]));
    withTargets(
      async () => {
        [upstream, twin] = [await startUpstream(), await startUpstream()];
        return { mode: 'record', upstream: upstream.url, out: mkdtempSync(join(tmpdir(), 'mockvideo-suite-rec-')) };
      },
      (expectSame) => {
        it("operations GET and HEAD, odd spellings of their paths, meta/upgrade: the upstream's answers, at the operations' own paths", async () => {
          const exchanges: Exchange[] = [];
          for (const operation of OPERATION_NAMES)
            exchanges.push(
              { method: 'GET', path: clientPath(operation) },
              { method: 'HEAD', path: clientPath(operation) },
            );
          const query = clientPath('meta/setting').split('?')[1]!;
          for (const path of [
            '/api/g1/./meta/setting',
            '/api/g1/%6Deta/plugin',
            '/api/g1/meta/cp/',
            '/scenarios/gallery/api/g1/meta/cp',
            '/api/g1//localplay/recomm',
            '/api/g1/meta/upgrade',
          ])
            exchanges.push({ method: 'GET', path: `${path}?${query}` });
          const seen = await expectSame(exchanges);
          expect(seen.every((s) => s !== 'reset' && (s.status === 200 || s.status === 404))).toBe(true);
          expect(upstream!.received.map((target) => target.split('?')[0])).toEqual(
            twin!.received.map((target) => target.split('?')[0]),
          );
          expect(
            upstream!.received.every((target) =>
              /^\/api\/g1\/(ad_config|meta\/(cp|setting|plugin|upgrade)|localplay\/(diversion|recomm))\?/.test(target),
            ),
          ).toBe(true);
        });

        it('what serve answers itself, record answers the same, and never forwards: other methods, unknown operations, paths out of /api/g1, a target too long', async () => {
          const before = upstream!.received.length;
          const seen = await expectSame([
            { method: 'POST', path: '/api/g1/meta/cp' },
            { method: 'POST', path: '/api/g1/meta/upgrade' },
            { method: 'GET', path: '/api/g1/meta/nothing' },
            { method: 'GET', path: '/api/g1/..%2f..%2fadmin' },
            { method: 'GET', path: '/api/g1/..;/admin' },
            { method: 'GET', path: `/api/g1/meta/cp?_eset=${'x'.repeat(8200)}` },
          ]);
          expect(seen.map((s) => (s === 'reset' ? 0 : s.status))).toEqual([405, 405, 404, 404, 404, 414]);
          expect(upstream!.received.length).toBe(before);
        });
      },
      () => recordReference(twin!.url),
    );
  });

  // Issue 43: faults in tests. The public handlers given faults in the --fault grammar
  // (createHandlers({ faults }), createReplayHandlers(dir, { faults })) are the reference here, held
  // to the same bytes as `serve --fault` and `replay --fault`, one operation per kind (hang aside: it
  // holds a request for 300 s; src/msw/handlers.test.ts sees it hold).
  describe.skipIf(subject.subset)(`${subject.name}: createHandlers({ faults }) as serve --fault (issue 43)`, () => {
    const FAULTS = [
      'ad_config=status:503',
      'meta/cp=envelope:-3',
      'meta/setting=malformed-json',
      'meta/plugin=empty',
      'localplay/recomm=reset',
      'localplay/diversion=delay:20-40',
    ];
    withTargets(
      () => ({ mode: 'serve', scenariosDir: dir, faults: FAULTS }),
      (expectSame) => {
        it('answers each kind with the bytes serve --fault sends: GET, HEAD, and below a scenario prefix', async () => {
          const exchanges: Exchange[] = OPERATION_NAMES.flatMap((operation) => [
            { method: 'GET' as const, path: clientPath(operation) },
            { method: 'HEAD' as const, path: clientPath(operation) },
            { method: 'GET' as const, path: `/scenarios/gallery${clientPath(operation)}` },
          ]);
          const seen = await expectSame(exchanges);
          const kinds = new Set(seen.map((s) => (s === 'reset' ? 'reset' : s.headers['x-mockvideo-fault'])));
          expect([...kinds].sort()).toEqual(['delay', 'empty', 'envelope', 'malformed-json', 'reset', 'status']);
        });
      },
      (origin) =>
        mswTarget(createHandlers({ catalog: loadScenarioCatalog(dir), scenario: 'default', faults: FAULTS }), origin),
    );
  });

  describe.skipIf(subject.subset)(
    `${subject.name}: createReplayHandlers(dir, { faults }) as replay --fault (issue 43)`,
    () => {
      const FAULTS = ['meta/cp=status:502', 'meta/setting=envelope', 'ad_config=reset'];
      let upstream: Upstream | undefined;
      let recorded = '';
      afterAll(() => upstream?.close());
      withTargets(
        async () => {
          upstream = await startUpstream();
          ({ dir: recorded } = await recordSession(upstream.url, [clientPath('meta/cp'), clientPath('meta/setting')]));
          return { mode: 'replay', dir: recorded, match: 'nearest', faults: FAULTS };
        },
        (expectSame) => {
          it('changes the recording that matched as replay --fault does', async () => {
            const seen = await expectSame([
              { method: 'GET', path: clientPath('meta/cp') },
              { method: 'GET', path: clientPath('meta/setting') },
              { method: 'GET', path: clientPath('ad_config') },
              { method: 'GET', path: clientPath('meta/cp') },
            ]);
            expect(seen.map((s) => (s === 'reset' ? s : s.headers['x-mockvideo-fault']))).toEqual([
              'status',
              'envelope',
              'reset',
              'status',
            ]);
          });
        },
        (origin) => mswTarget(createReplayHandlers(recorded, { match: 'nearest', faults: FAULTS }), origin),
      );
    },
  );
}

import { isCommonAssetRequest } from 'msw';
import { MockvideoError, prefixed } from '../errors.js';

/** What msw does with a request no handler answers: `error` fails it, `warn` prints it and lets it through, `bypass` lets it through. */
export type UnhandledStrategy = 'error' | 'warn' | 'bypass';

const STRATEGIES: readonly UnhandledStrategy[] = ['error', 'warn', 'bypass'];

/**
 * The unhandled-request option of `server.listen()` and `worker.start()` under both of msw's names:
 * `onUnhandledFrame` (msw 3) and `onUnhandledRequest` (msw 2). Each major reads its own name and
 * ignores the other, so one line works as written on either.
 */
export interface UnhandledOptions {
  /** msw 3's name (it ignores `onUnhandledRequest`). */
  readonly onUnhandledFrame: UnhandledStrategy;
  /** msw 2's name (it ignores `onUnhandledFrame`). */
  readonly onUnhandledRequest: UnhandledStrategy;
}

/**
 * The option that makes msw fail (`'error'`), report (`'warn'`) or pass on (`'bypass'`) a request no
 * handler answers, named for msw 2 and msw 3 at once: msw 3 renamed `onUnhandledRequest` to
 * `onUnhandledFrame` and ignores the old name without a word (msw 2 the other way round), so a
 * suite that writes one name by hand loses its guard on the other major.
 *
 * Shape: `{ onUnhandledFrame: strategy, onUnhandledRequest: strategy }`, frozen; spread it to add
 * other options (`worker.start({ ...onUnhandled('bypass'), quiet: true })`).
 * @throws MockvideoError (`MV_USAGE`) for a strategy other than `error`, `warn` or `bypass`.
 * @example
 * const server = setupServer(...createHandlers({ scenario: 'gallery' }));
 * beforeAll(() => server.listen(onUnhandled('error'))); // a call no handler answers fails, on msw 2 and 3
 * @see {@link unmockedRequests} to fail the test even when the app catches the failed call.
 */
export function onUnhandled(strategy: UnhandledStrategy): UnhandledOptions {
  if (!STRATEGIES.includes(strategy))
    throw new MockvideoError(
      'MV_USAGE',
      `onUnhandled(${JSON.stringify(strategy)}): the strategy is one of ${STRATEGIES.join(', ')} (msw's own).`,
    );
  return Object.freeze({ onUnhandledFrame: strategy, onUnhandledRequest: strategy });
}

/** One life-cycle event of msw about a request (msw 2.15 and 3 both give `request` and `requestId`). */
interface RequestEventLike {
  request: Request;
  requestId: string;
}

type EventName = 'request:unhandled' | 'response:bypass';

/** What {@link unmockedRequests} needs of msw's `setupServer(...)` or `setupWorker(...)`: its life-cycle events. */
export interface WithLifeCycleEvents {
  events: {
    on(type: EventName, listener: (event: RequestEventLike) => void): unknown;
    removeListener(type: EventName, listener: (event: RequestEventLike) => void): unknown;
  };
}

/** The collector {@link unmockedRequests} returns. */
export interface UnmockedRequests {
  /** `GET https://api.example.com/health`: each request no handler answered since the last {@link check}, in order. */
  readonly requests: readonly string[];
  /**
   * Throws when a request no handler answers was made since the last call, listing the method and URL
   * of each, then forgets them: call it in `afterEach`, so the test that made them fails.
   * @throws MockvideoError (`MV_UNMOCKED`) naming each request.
   */
  check(): void;
  /** Stops collecting (removes its listeners from the server's events). */
  stop(): void;
}

let toldOfTheNetwork = false;

/**
 * Collects the requests no handler answers, from msw's `request:unhandled` event, so that
 * `afterEach(() => unmocked.check())` fails the test that made one, with the method and URL of each:
 * also when the app catches the failed call (a settings loader that falls back to defaults) and the
 * test would pass on what the fallback shows. Independent of the unhandled-request option, and of
 * its name: msw emits the event before it applies the option, on msw 2 and 3. Requests for static
 * files (`.png`, `.js`, …) are left out, as msw's own option leaves them.
 *
 * A request that then reached the network (msw's `response:bypass`: the option let it through:
 * absent, `warn`, `bypass`, or written under the name the installed msw ignores) is also told once
 * per process on stderr, with what to write instead.
 *
 * @example
 * const server = setupServer(...createHandlers({ scenario: 'gallery' }));
 * const unmocked = unmockedRequests(server);
 * beforeAll(() => server.listen(onUnhandled('error')));
 * afterEach(() => { server.resetHandlers(); unmocked.check(); });
 * afterAll(() => server.close());
 */
export function unmockedRequests(server: WithLifeCycleEvents): UnmockedRequests {
  const requests: string[] = [];
  const unhandled = new Set<string>();
  const onUnhandledRequest = ({ request, requestId }: RequestEventLike) => {
    if (isCommonAssetRequest(request)) return;
    requests.push(`${request.method} ${request.url}`);
    unhandled.add(requestId);
  };
  const onBypass = ({ request, requestId }: RequestEventLike) => {
    if (!unhandled.delete(requestId) || toldOfTheNetwork) return;
    toldOfTheNetwork = true;
    console.error(
      prefixed(
        `${request.method} ${request.url}: no handler answers it, and msw let it through to the network. ` +
          `msw 3 reads only onUnhandledFrame, msw 2 only onUnhandledRequest (each ignores the other's name): ` +
          `server.listen(onUnhandled('error')) from mockvideo names both.`,
      ),
    );
  };
  server.events.on('request:unhandled', onUnhandledRequest);
  server.events.on('response:bypass', onBypass);
  return {
    requests,
    check() {
      if (requests.length === 0) return;
      const made = requests.splice(0);
      unhandled.clear();
      throw new MockvideoError(
        'MV_UNMOCKED',
        `${made.length === 1 ? 'A request' : `${made.length} requests`} no handler answers (the app may have caught the failure):\n${made.map((line) => `  ${line}`).join('\n')}\nAdd a handler for ${made.length === 1 ? 'it' : 'each'} (server.use(http.get(…)) or a scenario), or keep the app from making ${made.length === 1 ? 'it' : 'them'}.`,
      );
    },
    stop() {
      server.events.removeListener('request:unhandled', onUnhandledRequest);
      server.events.removeListener('response:bypass', onBypass);
    },
  };
}

import type { RequestHandler, Response } from 'express';
import type { ServerContext } from '../context.js';
import type { DeviceNames } from './devices.js';
import { StreamSlots } from './stream-slots.js';

/** The most event streams open at once (docs/security.md, "Bounds"): a new one takes the slot of an idle one (see `StreamSlots`). */
const MAX_EVENT_STREAMS = 16;

/** The most event streams open at once from one address: a flood from one never costs another address its stream. */
const MAX_STREAMS_PER_ADDRESS = 4;

/**
 * The most bytes an event stream may hold unsent (written, not yet taken by its reader): beyond
 * them its reader is not reading, and the stream is closed (the page reconnects after `retry`).
 */
const MAX_STREAM_BUFFER_BYTES = 1024 * 1024;

/** How often the streams are sent what changed, in milliseconds: device answers never wait on a stream. */
const EVENT_TICK_MS = 250;

/** The most `request` events one tick sends; the rest are counted in a `skipped` event (the dashboard keeps a window anyway). */
const MAX_REQUEST_EVENTS_PER_TICK = 50;

/** How long a stream that gave up its slot has to take its last event before it is cut, in milliseconds. */
const DROP_GRACE_MS = 5000;

/** How often a stream gets a comment so proxies and browsers keep it open, in milliseconds. */
const HEARTBEAT_MS = 15_000;

/** A server-sent event: `event: NAME` and one `data:` line of JSON. */
function eventText(name: string, data: unknown): string {
  return `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
}

/**
 * The live event stream of `GET /__mockvideo/events` (server-sent events) for every open dashboard:
 * `request` with new journal entries, `skipped` (`{ count }`) for entries a tick left out,
 * `scenario` when the active scenario changes, `faults-changed` (`{ changed, removed }`, see
 * `faultChanges`) when the planned faults change, `cleared`
 * when the journal is cleared, `devices` when a device is given a name or a scenario of its own; a `: heartbeat` comment
 * every {@link HEARTBEAT_MS}. The first events give the current scenario and faults (`faults`, the whole list).
 *
 * Bounded: at most {@link MAX_EVENT_STREAMS} streams, {@link MAX_STREAMS_PER_ADDRESS} from one
 * address, shared fairly: a new stream always gets one, taking the slot of the oldest stream of its
 * own address, else of the address holding the most (see `StreamSlots`); the stream given up
 * gets a last `dropped` event (`{ reason }`; the page then stops reconnecting) and is cut if its
 * reader has not taken it within {@link DROP_GRACE_MS}. One timer of {@link EVENT_TICK_MS} for all, reading the journal (never a
 * listener on it, so a device's answer never waits on a stream), each event serialised once for
 * every stream; a stream whose reader holds more than {@link MAX_STREAM_BUFFER_BYTES} unsent is
 * closed. Returns the Express handler of `GET /events`.
 */
export function eventStream(context: ServerContext, names: DeviceNames): RequestHandler {
  const streams = new StreamSlots<Response>(MAX_EVENT_STREAMS, MAX_STREAMS_PER_ADDRESS);
  let timer: NodeJS.Timeout | undefined;
  // What the streams were last told: the newest journal id, the scenario, the faults' version and ids, the names' version.
  let lastId = 0;
  let scenario = '';
  let faultsVersion = 0;
  let faultIds = new Set<number>();
  let namesVersion = 0;
  let steeringVersion = 0;
  let heartbeatAt = 0;
  const stop = () => {
    clearInterval(timer);
    timer = undefined;
  };
  const start = () => {
    lastId = context.journal.newestId ?? 0;
    scenario = context.active.scenario;
    faultsVersion = context.faults.version;
    faultIds = new Set(context.faults.list().map((planned) => planned.id));
    steeringVersion = context.deviceScenarios.version;
    heartbeatAt = Date.now();
    timer = setInterval(tick, EVENT_TICK_MS);
    timer.unref();
  };

  /**
   * The `faults-changed` event of what changed on the fault board since the last tick (`''` for
   * nothing): the faults planned or counted since, whole, and the ids of those removed. What one
   * request costs the stream is the fault or two it counted, however many faults are planned (it
   * was the whole list: 13 MB of events in 17 s with 1,000 faults).
   */
  function faultChanges(): string {
    const board = context.faults;
    if (board.version === faultsVersion) return '';
    const changed = board.changedSince(faultsVersion);
    const ids = new Set(board.list().map((planned) => planned.id));
    const removed = [...faultIds].filter((id) => !ids.has(id));
    faultsVersion = board.version;
    faultIds = ids;
    return changed.length || removed.length ? eventText('faults-changed', { changed, removed }) : '';
  }

  /** Sends every stream what changed since the last tick, as one write each. */
  function tick(): void {
    let text = '';
    const { journal } = context;
    const newest = journal.newestId;
    // Ids keep counting after a clear: the last id sent is gone, with fewer new entries than the journal keeps, only after one.
    if (lastId > 0 && (newest === undefined || (!journal.get(lastId) && newest - lastId < journal.limit))) {
      text += eventText('cleared', {});
      if (newest === undefined) lastId = 0;
    }
    if (newest !== undefined && newest > lastId) {
      // Newest first, back to the last id sent (or a cleared or forgotten one), at most MAX_REQUEST_EVENTS_PER_TICK.
      const events: string[] = [];
      let id = newest;
      for (
        let exchange;
        id > lastId && events.length < MAX_REQUEST_EVENTS_PER_TICK && (exchange = journal.get(id));
        id--
      )
        events.push(eventText('request', exchange.entry));
      if (id > lastId && journal.get(id)) text += eventText('skipped', { count: id - lastId });
      text += events.reverse().join('');
      lastId = newest;
    }
    if (context.active.scenario !== scenario)
      text += eventText('scenario', { name: (scenario = context.active.scenario) });
    text += faultChanges();
    if (names.version !== namesVersion || context.deviceScenarios.version !== steeringVersion) {
      namesVersion = names.version;
      steeringVersion = context.deviceScenarios.version;
      text += eventText('devices', {});
    }
    if (Date.now() - heartbeatAt >= HEARTBEAT_MS) {
      heartbeatAt = Date.now();
      text += ': heartbeat\n\n';
    }
    // A stream whose reader holds too much unsent is closed.
    for (const res of text ? [...streams.streams()] : []) {
      if (res.writableLength + text.length <= MAX_STREAM_BUFFER_BYTES) res.write(text);
      else {
        streams.delete(res);
        res.destroy();
        if (streams.size === 0) stop();
      }
    }
  }

  /** Ends a stream whose slot a newer one took: told why (the page stops reconnecting); cut if its reader has not taken that within {@link DROP_GRACE_MS}. */
  const drop = (res: Response) => {
    const cut = setTimeout(() => res.destroy(), DROP_GRACE_MS).unref();
    res.once('close', () => clearTimeout(cut));
    res.end(
      eventText('dropped', {
        reason: `A newer event stream took this one's slot: mockvideo keeps at most ${MAX_EVENT_STREAMS} open, ${MAX_STREAMS_PER_ADDRESS} from one address (dashboards left open elsewhere count). Reload the page to take one again.`,
      }),
    );
  };

  return (req, res) => {
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    res.write(
      `retry: 2000\n\n${eventText('scenario', { name: context.active.scenario })}${eventText('faults', { faults: context.faults.list() })}`,
    );
    if (streams.size === 0) start();
    const dropped = streams.admit(res, req.socket.remoteAddress ?? '');
    if (dropped) drop(dropped);
    // A server shutting down ends the stream (the page reconnects to the next server, after `retry`).
    const end = () => res.end();
    context.closing.signal.addEventListener('abort', end, { once: true });
    req.on('close', () => {
      streams.delete(res);
      context.closing.signal.removeEventListener('abort', end);
      if (streams.size === 0) stop();
    });
  };
}

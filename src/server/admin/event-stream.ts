import type { Request, Response } from 'express';
import type { ServerContext } from '../context.js';
import type { DeviceNames } from './devices.js';

/** The most event streams open at once; one more is answered 429 (docs/security.md, "Bounds"). */
export const MAX_EVENT_STREAMS = 16;

/**
 * The most bytes an event stream may hold unsent (written, not yet taken by its reader): beyond
 * them its reader is not reading, and the stream is closed (the page reconnects after `retry`).
 */
const MAX_STREAM_BUFFER_BYTES = 1024 * 1024;

/** How often the streams are sent what changed, in milliseconds: device answers never wait on a stream. */
const EVENT_TICK_MS = 250;

/** The most `request` events one tick sends; the rest are counted in a `skipped` event (the dashboard keeps a window anyway). */
const MAX_REQUEST_EVENTS_PER_TICK = 50;

/** How often a stream gets a comment so proxies and browsers keep it open, in milliseconds. */
const HEARTBEAT_MS = 15_000;

/** A server-sent event: `event: NAME` and one `data:` line of JSON. */
function eventText(name: string, data: unknown): string {
  return `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
}

/**
 * The live event stream of `GET /__mockvideo/events` (server-sent events) for every open dashboard:
 * `request` with new journal entries, `skipped` (`{ count }`) for entries a tick left out,
 * `scenario` when the active scenario changes, `faults` when the planned faults change, `cleared`
 * when the journal is cleared, `devices` when a device is given a name; a `: heartbeat` comment
 * every {@link HEARTBEAT_MS}. The first events give the current scenario and faults.
 *
 * Bounded: at most {@link MAX_EVENT_STREAMS} streams (429 past them); one timer of
 * {@link EVENT_TICK_MS} for all, reading the journal (never a listener on it, so a device's answer
 * never waits on a stream), each event serialised once for every stream; a stream whose reader
 * holds more than {@link MAX_STREAM_BUFFER_BYTES} unsent is closed.
 */
export class EventHub {
  readonly #context: ServerContext;
  readonly #streams = new Set<Response>();
  #timer: NodeJS.Timeout | undefined;
  #lastId = 0;
  #scenario = '';
  #faults = '';
  readonly #names: DeviceNames;
  #namesVersion = 0;
  #heartbeatAt = 0;

  constructor(context: ServerContext, names: DeviceNames) {
    this.#context = context;
    this.#names = names;
  }

  /** How many streams are open. */
  get size(): number {
    return this.#streams.size;
  }

  /** The Express handler of `GET /events`. */
  readonly handler = (req: Request, res: Response): void => {
    if (this.#streams.size >= MAX_EVENT_STREAMS) {
      res
        .status(429)
        .set('retry-after', '10')
        .json({
          error: `Too many event streams: mockvideo keeps at most ${MAX_EVENT_STREAMS} open (dashboards left open elsewhere count). Close a dashboard tab, or try again later.`,
        });
      return;
    }
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    const context = this.#context;
    res.write(
      `retry: 2000\n\n${eventText('scenario', { name: context.active.scenario })}${eventText('faults', { faults: context.faults.list() })}`,
    );
    if (this.#streams.size === 0) this.#start();
    this.#streams.add(res);
    // A server shutting down ends the stream (the page reconnects to the next server, after `retry`).
    const end = () => res.end();
    context.closing.signal.addEventListener('abort', end, { once: true });
    req.on('close', () => {
      this.#streams.delete(res);
      context.closing.signal.removeEventListener('abort', end);
      if (this.#streams.size === 0) this.#stop();
    });
  };

  #start(): void {
    const context = this.#context;
    this.#lastId = context.journal.newestId ?? 0;
    this.#scenario = context.active.scenario;
    this.#faults = JSON.stringify(context.faults.list());
    this.#heartbeatAt = Date.now();
    this.#timer = setInterval(() => this.#tick(), EVENT_TICK_MS);
    this.#timer.unref();
  }

  #stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  /** Sends every stream what changed since the last tick, as one write each. */
  #tick(): void {
    const context = this.#context;
    let text = '';
    const { journal } = context;
    const newest = journal.newestId;
    // Ids keep counting after a clear: the last id sent is gone, with fewer new entries than the journal keeps, only after one.
    if (
      this.#lastId > 0 &&
      (newest === undefined || (!journal.get(this.#lastId) && newest - this.#lastId < journal.limit))
    ) {
      text += eventText('cleared', {});
      if (newest === undefined) this.#lastId = 0;
    }
    if (newest !== undefined && newest > this.#lastId) {
      // Newest first, back to the last id sent (or a cleared or forgotten one), at most MAX_REQUEST_EVENTS_PER_TICK.
      const events: string[] = [];
      let id = newest;
      for (
        let exchange;
        id > this.#lastId && events.length < MAX_REQUEST_EVENTS_PER_TICK && (exchange = journal.get(id));
        id--
      )
        events.push(eventText('request', exchange.entry));
      if (id > this.#lastId && journal.get(id)) text += eventText('skipped', { count: id - this.#lastId });
      text += events.reverse().join('');
      this.#lastId = newest;
    }
    if (context.active.scenario !== this.#scenario)
      text += eventText('scenario', { name: (this.#scenario = context.active.scenario) });
    const faults = JSON.stringify(context.faults.list());
    if (faults !== this.#faults)
      text += eventText('faults', { faults: JSON.parse((this.#faults = faults)) as unknown });
    if (this.#names.version !== this.#namesVersion) {
      this.#namesVersion = this.#names.version;
      text += eventText('devices', {});
    }
    const now = Date.now();
    if (now - this.#heartbeatAt >= HEARTBEAT_MS) {
      this.#heartbeatAt = now;
      text += ': heartbeat\n\n';
    }
    if (text) for (const res of this.#streams) this.#send(res, text);
  }

  /** Writes `text` to one stream, or closes it when its reader holds too much unsent. */
  #send(res: Response, text: string): void {
    if (res.writableLength + text.length > MAX_STREAM_BUFFER_BYTES) {
      this.#streams.delete(res);
      res.destroy();
      if (this.#streams.size === 0) this.#stop();
      return;
    }
    res.write(text);
  }
}

import type { Har } from 'har-format';
import { harFromRecordings } from '../replay/har.js';
import type { OperationName } from '../contract/core.js';
import type { JournalExchange } from './journal.js';

/**
 * The journal as a HAR 1.2 log (opens in browser DevTools and Charles), one entry per request,
 * with the response bodies as sent and each entry's real start time and duration (milliseconds);
 * the fields of {@link harFromRecordings} (creator version, page, `_resourceType`, `serverIPAddress`).
 * @param baseUrl the origin to show in request URLs, e.g. `http://127.0.0.1:8787`.
 * @param version `log.creator.version`; default this package's version.
 * @param serverIPAddress the address mockvideo answered on; default the host of `baseUrl` when it is an IP address.
 */
export function journalToHar(
  exchanges: readonly JournalExchange[],
  baseUrl: string,
  version?: string,
  serverIPAddress?: string,
): Har {
  const har = harFromRecordings(
    exchanges.map((x) => ({
      name: String(x.entry.id),
      recording: {
        operation: x.entry.operation as OperationName,
        matchKey: '',
        recordedAt: x.entry.time,
        request: { method: x.method, path: x.path, query: x.rawQuery, headers: x.requestHeaders },
        response: { status: x.entry.status, headers: x.responseHeaders, body: x.responseBody },
      },
    })),
    {
      baseUrl,
      pageTitle: 'mockvideo journal',
      ...(version === undefined ? {} : { version }),
      ...(serverIPAddress === undefined ? {} : { serverIPAddress }),
    },
  );
  har.log.entries.forEach((entry, i) => {
    const duration = exchanges[i]!.entry.durationMs;
    entry.time = duration;
    entry.timings = { send: 0, wait: duration, receive: 0 };
  });
  return har;
}

/** Where {@link writeJournalHar} writes: a Node response or any stream with `write`, `end` and `drain`. */
export interface HarSink {
  write(chunk: string): boolean;
  end(): void;
  once(event: 'drain' | 'close', listener: () => void): unknown;
}

/**
 * Writes the journal as a HAR 1.2 log (the same text as {@link journalToHar} gives) to `sink` entry
 * by entry, waiting for `drain` when the sink is full, so a journal of large bodies is never one string
 * in memory. Resolves when the log is written, or when the sink closes early.
 */
export async function writeJournalHar(
  sink: HarSink,
  exchanges: readonly JournalExchange[],
  baseUrl: string,
  version?: string,
  serverIPAddress?: string,
): Promise<void> {
  let closed = false;
  // The wait for `drain` in progress, ended early when the sink closes.
  let waiting: (() => void) | undefined;
  sink.once('close', () => {
    closed = true;
    waiting?.();
  });
  // The head (creator, the page starting at the first exchange) with its entries written one by one after it.
  const { log } = journalToHar(exchanges.slice(0, 1), baseUrl, version, serverIPAddress);
  const head = JSON.stringify({ log: { ...log, entries: [] } });
  const write = async (text: string) => {
    if (sink.write(text) || closed) return;
    await new Promise<void>((resolve) => {
      waiting = resolve;
      sink.once('drain', resolve);
    });
    waiting = undefined;
  };
  await write(head.slice(0, -3));
  for (let i = 0; i < exchanges.length && !closed; i++)
    await write(
      `${i ? ',' : ''}${JSON.stringify(journalToHar([exchanges[i]!], baseUrl, version, serverIPAddress).log.entries[0])}`,
    );
  if (!closed) {
    sink.write(']}}');
    sink.end();
  }
}

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
function journalToHar(
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

/**
 * The journal as a HAR 1.2 log (the same text as {@link journalToHar} gives) in pieces: the head,
 * then entry by entry, so that a journal of large bodies is never one string in memory (a server
 * streams them with `Readable.from`, which waits for a slow reader).
 */
export function* journalHarText(
  exchanges: readonly JournalExchange[],
  baseUrl: string,
  version?: string,
  serverIPAddress?: string,
): Generator<string> {
  // The head (creator, the page starting at the first exchange) with its entries written one by one after it.
  const { log } = journalToHar(exchanges.slice(0, 1), baseUrl, version, serverIPAddress);
  yield JSON.stringify({ log: { ...log, entries: [] } }).slice(0, -3);
  for (const [i, exchange] of exchanges.entries())
    yield `${i ? ',' : ''}${JSON.stringify(journalToHar([exchange], baseUrl, version, serverIPAddress).log.entries[0])}`;
  yield ']}}';
}

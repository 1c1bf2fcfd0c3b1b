/**
 * One exchange with the upstream: its whole answer, decoded for storage, or what went wrong as data
 * (an {@link UpstreamProblem}). Never throws for the upstream's faults.
 * @module
 */
import type { Dispatcher } from 'undici';
import { measuredLatency, type RecordedLatency } from '../latency/latency.js';
import type { ForwardedRequest } from './forward.js';
import type { UpstreamProblem } from './upstream-problem.js';
import { DecodedTooLarge, causeOf, decoded, flat } from './wire.js';

/** The upstream's whole answer. */
export interface UpstreamAnswer {
  readonly kind: 'answer';
  readonly status: number;
  /** Its headers as they came (Node's form), to pass back. */
  readonly rawHeaders: Readonly<Record<string, string | string[] | undefined>>;
  /** Its headers, one string each, lower-case names: what is recorded. */
  readonly headers: Readonly<Record<string, string>>;
  /** The body bytes as received, passed back unchanged. */
  readonly body: Buffer;
  /** The body with its `content-encoding` undone: what is recorded. */
  readonly plain: Buffer;
  /** How long the upstream took, in milliseconds. */
  readonly latency: RecordedLatency;
}

/** How {@link askUpstream} asks. */
export interface AskSettings {
  /** The upstream's own path prefix (`''` for none), put before the forwarded target. */
  basePath: string;
  /** The total deadline, headers and whole body, in milliseconds. */
  timeoutMs: number;
  /** The largest body, in bytes, as received and as decoded. */
  maxBodyBytes: number;
  /** Counts body bytes as held in memory while they are (see `InFlightBudget`). */
  hold: (bytes: number) => void;
}

/** An upstream body over the size limit. */
class BodyTooLarge extends Error {}

/**
 * Asks the upstream (`pool`, undici) for `forwarded` and reads its whole answer, then decodes a copy
 * of a compressed body. A timeout (`UND_ERR_HEADERS_TIMEOUT` or `UND_ERR_BODY_TIMEOUT` by what was
 * late), a connection or certificate failure, a body over `maxBodyBytes` as received or decoded, and
 * a body that does not decode come back as an {@link UpstreamProblem}.
 */
export async function askUpstream(
  pool: Dispatcher,
  forwarded: ForwardedRequest,
  settings: AskSettings,
): Promise<UpstreamAnswer | UpstreamProblem> {
  const { timeoutMs, maxBodyBytes: limit } = settings;
  // What was late when the deadline fired: the headers, or the rest of the body.
  let phase: 'headers' | 'body' = 'headers';
  let size = 0;
  const sentNs = process.hrtime.bigint();
  let answer: Dispatcher.ResponseData;
  let headersNs: bigint;
  const chunks: Buffer[] = [];
  try {
    answer = await pool.request({
      path: `${settings.basePath}${forwarded.target}`,
      method: forwarded.method as Dispatcher.HttpMethod,
      headers: forwarded.headers,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      // The total deadline: undici's two timeouts above only bound the wait for the headers and the
      // gap between two chunks, not a body that trickles without end.
      signal: AbortSignal.timeout(timeoutMs),
    });
    phase = 'body';
    headersNs = process.hrtime.bigint();
    for await (const chunk of answer.body as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > limit) throw new BodyTooLarge();
      settings.hold(chunk.length);
      chunks.push(chunk);
    }
  } catch (error) {
    return error instanceof BodyTooLarge
      ? { kind: 'too-large', decoded: false }
      : { kind: 'failed', cause: causeOf(error, phase), received: size };
  }
  const latency = measuredLatency(sentNs, headersNs, process.hrtime.bigint());
  const body = Buffer.concat(chunks);
  const headers = flat(answer.headers);
  // A body that does not decode (say, invalid gzip) is no answer: the client gets a clear 502, not
  // bytes it cannot read, and nothing is recorded.
  let plain: Buffer;
  try {
    plain = await decoded(body, headers['content-encoding'], limit);
    if (plain !== body) settings.hold(plain.length);
  } catch (error) {
    if (error instanceof DecodedTooLarge) return { kind: 'too-large', decoded: true };
    return { kind: 'bad-encoding', encoding: headers['content-encoding'] ?? '', message: (error as Error).message };
  }
  return { kind: 'answer', status: answer.statusCode, rawHeaders: answer.headers, headers, body, plain, latency };
}

/**
 * Upstream errors as data: what went wrong with an upstream's answer, and the answer (built by the
 * routes' `upstreamFailed`, one body shape) and log note it gives. Pure.
 * @module
 */
import { upstreamFailed } from '../routes/errors.js';
import type { Answer } from '../routes/request.js';
import type { UpstreamFailure } from './wire.js';

/**
 * Why the upstream's answer cannot be passed on: it `failed` (down, too slow, a certificate that
 * does not verify; `received` body bytes had arrived), its body is `too-large` as received or as
 * decoded, or it does not decode (`bad-encoding`).
 */
export type UpstreamProblem =
  | { readonly kind: 'failed'; readonly cause: UpstreamFailure; readonly received: number }
  | { readonly kind: 'too-large'; readonly decoded: boolean }
  | { readonly kind: 'bad-encoding'; readonly encoding: string; readonly message: string };

/** Where the problem happened: the upstream's origin, the request (`GET /api/g1/meta/cp`), `--upstream-timeout` in seconds, `--max-body-size` in bytes. */
export interface ProblemContext {
  upstream: string;
  request: string;
  seconds: number;
  limit: number;
}

const mib = (bytes: number) => `${Math.round((bytes / 1024 / 1024) * 100) / 100} MiB`;

/**
 * The answer to the client for an upstream problem (`MV_UPSTREAM_TIMEOUT`, 504, for a timeout; a
 * 502 code otherwise: `MV_UPSTREAM_CERTIFICATE`, `_TOO_LARGE`, `_BAD_ENCODING`, `_UNREACHABLE`; nothing is
 * recorded), with the log's note. Each message names the upstream, the request and the next step.
 */
export function problemAnswer(problem: UpstreamProblem, at: ProblemContext): { answer: Answer; note: string } {
  const { upstream, request, seconds, limit } = at;
  if (problem.kind === 'too-large') {
    const what = problem.decoded
      ? `a body that decodes past the --max-body-size limit of ${mib(limit)} (${limit} bytes)`
      : `a body larger than the --max-body-size limit of ${mib(limit)} (${limit} bytes)`;
    const error = `The upstream ${upstream} answered ${request} with ${what}. Nothing was recorded. Raise --max-body-size if the answer is right.`;
    return {
      answer: upstreamFailed('MV_UPSTREAM_TOO_LARGE', error, upstream, 'EBODYTOOLARGE', { limit }),
      note: problem.decoded ? 'upstream body decodes past the size limit' : 'upstream body over the size limit',
    };
  }
  if (problem.kind === 'bad-encoding') {
    const error = `The upstream ${upstream} answered ${request} with a body that does not decode as "${problem.encoding}": ${problem.message}. Nothing was recorded.`;
    return {
      answer: upstreamFailed('MV_UPSTREAM_BAD_ENCODING', error, upstream, 'EBADENCODING'),
      note: `upstream body does not decode as ${problem.encoding}`,
    };
  }
  const { cause } = problem;
  const note = `upstream ${cause.kind === 'timeout' ? 'timed out' : 'failed'}: ${cause.code}`;
  const slow = `Nothing was recorded. If the service is only slow, raise --upstream-timeout (now ${seconds}).`;
  if (cause.kind === 'timeout') {
    const late =
      cause.code === 'UND_ERR_HEADERS_TIMEOUT'
        ? `sent no answer to ${request} within ${seconds} s`
        : cause.code === 'UND_ERR_BODY_TIMEOUT'
          ? `did not finish its answer to ${request} within ${seconds} s: ${problem.received} body bytes had arrived`
          : `did not answer ${request} in time: ${cause.message}`;
    const error = `The upstream ${upstream} ${late} (${cause.code}). ${slow}`;
    return { answer: upstreamFailed('MV_UPSTREAM_TIMEOUT', error, upstream, cause.code), note };
  }
  if (cause.kind === 'certificate') {
    const error = `The TLS certificate of the upstream ${upstream} does not verify, so ${request} was not sent: ${cause.message} (${cause.code}). Nothing was recorded. Trust its CA with NODE_EXTRA_CA_CERTS=ca.pem, or, for a test server you trust, start with --insecure-upstream (the certificate is then not checked).`;
    return { answer: upstreamFailed('MV_UPSTREAM_CERTIFICATE', error, upstream, cause.code), note };
  }
  return {
    answer: upstreamFailed(
      'MV_UPSTREAM_UNREACHABLE',
      `The upstream ${upstream} did not answer ${request}: ${cause.message} (${cause.code}). Nothing was recorded. Check that --upstream is right and reachable.`,
      upstream,
      cause.code,
    ),
    note,
  };
}

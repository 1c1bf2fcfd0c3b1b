import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type express from 'express';
import { API_PREFIX } from '../contract/index.js';
import type { Finding } from '../findings/index.js';
import type { RecordingProxy } from '../record/index.js';
import type { ServerContext } from './context.js';
import { answerFailure, fastPathListener, originReader, type FastPath } from './fast-path-listener.js';
import { captureBody, findingsOf, journalExchange, operationTarget } from './journal-middleware.js';
import { MAX_URL_LENGTH } from './listen.js';

/** The request targets the record fast path takes start with this (origin-form only). */
const PROXIED_PREFIX = `${API_PREFIX}/`;

/** Options of {@link createRecordFastPath}. */
export interface RecordFastPathOptions {
  /**
   * Answers a request whose exchange failed in an unexpected way before its answer was sent (the
   * full host hands such an error to its error handler: a JSON 400 or 500). Called at most once per
   * request, with whatever was thrown.
   */
  onError: (req: IncomingMessage, res: ServerResponse, error: unknown) => void;
}

/**
 * The record fast path: a Node request listener step that hands GET and HEAD requests under
 * `/api/g1/` straight to the recording proxy, without Express. It does what the full host (see
 * `createApp` with the proxy as its `after` middleware) does for them: the same journal entry and
 * `x-mockvideo-findings` header ({@link journalExchange}), the same proxy (so the same answer, log
 * line, recording file and in-flight tracking), and unexpected errors go to `options.onError`.
 * A differential test (test/perf/record-differential.test.ts) holds the two to identical answers,
 * recordings, journal entries and log lines.
 *
 * Returns `false`, touching nothing, for every request it leaves to the full host: other methods
 * and paths (admin API, dashboard, the 405 of other methods), an absolute-form target, a target
 * over {@link MAX_URL_LENGTH} (414), a request without a `Host` header or with one that does not
 * parse (the full host answers 400), and with `--strict-requests` a request with findings (400).
 */
export function createRecordFastPath(context: ServerContext, proxy: Pick<RecordingProxy, 'middleware'>, options: RecordFastPathOptions): FastPath {
  // The full host (msw's middleware) makes `new URL(target, origin)`, which throws when the Host header does not parse.
  const originOf = originReader();

  return (req, res) => {
    const method = req.method;
    if (method !== 'GET' && method !== 'HEAD') return false;
    const url = req.url ?? '';
    if (url.length > MAX_URL_LENGTH || !url.startsWith(PROXIED_PREFIX)) return false;
    if (originOf(req) === undefined) return false;
    const target = operationTarget(url);
    let findings: readonly Finding[] = [];
    if (target) {
      try {
        findings = findingsOf(req, target);
      } catch {
        // The full host meets the same error and answers it.
        return false;
      }
      if (context.strictRequests && findings.length) return false;
    }
    let failed = false;
    const fail = (error: unknown) => {
      if (failed) return;
      failed = true;
      options.onError(req, res, error);
    };
    try {
      if (target) journalExchange(context, req, res, target, findings, captureBody(res));
      proxy.middleware(req, res, fail);
    } catch (error) {
      fail(error);
    }
    return true;
  };
}

/**
 * The request listener of `record`: the record fast path ({@link createRecordFastPath}) in front of
 * `app`, the full Express host (made with `createApp` and `proxy.middleware` as its `after`
 * middleware), which gets every request the fast path leaves. An exchange that fails unexpectedly on
 * the fast path before its answer was sent is answered by the full host's error handler (a JSON 400
 * for a request it cannot read, else 500), through a host of its own made on the first such failure,
 * without the journal (the fast path journaled the exchange already).
 */
export function recordListener(app: RequestListener, context: ServerContext, proxy: Pick<RecordingProxy, 'middleware'>): RequestListener {
  const failures = new WeakMap<IncomingMessage, unknown>();
  let errorHost: Promise<express.Express> | undefined;
  const fast = createRecordFastPath(context, proxy, {
    onError: (req, res, error) => {
      failures.set(req, error);
      errorHost ??= import('./app.js').then(({ createApp }) => createApp({ handlers: [], after: [(failed, _res, next) => next(failures.get(failed))] }));
      void errorHost.then(
        (host) => host(req, res),
        () => answerFailure(req, res, error),
      );
    },
  });
  return fastPathListener(fast, app);
}

import type { NextFunction, Request, Response } from 'express';
import { SERVICE_TOKEN_PLACEHOLDER, operationOfPath } from '../contract/index.js';
import { requestFindings } from '../findings/index.js';
import { ANSWERED_BY_HEADER, FAULT_HEADER } from '../handlers/index.js';
import { decodeComponent, splitQuery, type RawPair } from '../normalise/index.js';
import { MATCH_HEADER } from '../replay/index.js';
import type { ServerContext } from './context.js';

/** The response header that counts the contract findings of a request. */
export const FINDINGS_HEADER = 'x-mockvideo-findings';


function hasBody(req: Request): boolean {
  const length = Number(req.headers['content-length'] ?? 0);
  return length > 0 || req.headers['transfer-encoding'] !== undefined;
}

function headerRecord(headers: Record<string, unknown>, redacted: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    out[name] = redacted.includes(name.toLowerCase()) ? '<REDACTED>' : Array.isArray(value) ? value.join(', ') : String(value);
  }
  return out;
}

/**
 * Express middleware for requests to operations: checks the request against the contract (the count
 * goes into the `x-mockvideo-findings` header; with `strictRequests` a request with findings gets a
 * 400 listing them), then journals the exchange once it is answered or the client went away.
 * Secrets are redacted in the journal. Other requests pass untouched.
 */
export function journalMiddleware(context: ServerContext) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const [path = '', search = ''] = req.originalUrl.split(/\?(.*)/s);
    const operation = operationOfPath(path);
    if (!operation) return next();
    const receivedAt = Date.now();
    const start = process.hrtime.bigint();
    const rawQuery = splitQuery(search);
    const findings = requestFindings({ operation, query: rawQuery, hasBody: hasBody(req) });
    res.setHeader(FINDINGS_HEADER, String(findings.length));

    const chunks: Buffer[] = [];
    const write = res.write.bind(res) as (...args: unknown[]) => boolean;
    const end = res.end.bind(res) as (...args: unknown[]) => Response;
    const keep = (chunk: unknown, encoding?: unknown) => {
      if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
      chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8'));
    };
    res.write = ((chunk: unknown, ...rest: unknown[]) => {
      keep(chunk, rest[0]);
      return write(chunk, ...rest);
    }) as Response['write'];
    res.end = ((chunk?: unknown, ...rest: unknown[]) => {
      keep(chunk, rest[0]);
      return end(chunk, ...rest);
    }) as Response['end'];

    let journaled = false;
    const journal = () => {
      if (journaled) return;
      journaled = true;
      const secrets = context.policy.secret;
      const redactedQuery: RawPair[] = rawQuery.map(([name, value]) => [name, secrets.includes(decodeComponent(name)) ? SERVICE_TOKEN_PLACEHOLDER : value]);
      // No prototype: a parameter may be called `valueOf`, `constructor` or `__proto__`.
      const query = Object.create(null) as Record<string, string[]>;
      for (const [name, value] of redactedQuery) (query[decodeComponent(name)] ??= []).push(decodeComponent(value));
      const answered = res.headersSent && res.statusCode >= 100;
      context.journal.add({
        entry: {
          time: new Date(receivedAt).toISOString(),
          operation,
          query,
          scenario: (res.getHeader(ANSWERED_BY_HEADER) as string | undefined) ?? null,
          status: answered ? res.statusCode : 0,
          durationMs: Math.round(Number(process.hrtime.bigint() - start) / 1e4) / 100,
          findings,
          match: (res.getHeader(MATCH_HEADER) as string | undefined) ?? null,
          fault: (res.getHeader(FAULT_HEADER) as string | undefined) ?? (answered ? null : 'reset'),
        },
        method: req.method,
        path,
        rawQuery: redactedQuery,
        requestHeaders: headerRecord(req.headers, context.policy.headers),
        responseHeaders: headerRecord(res.getHeaders(), context.policy.headers),
        responseBody: Buffer.concat(chunks).toString('utf8'),
      });
    };
    res.on('finish', journal);
    res.on('close', journal);

    if (context.strictRequests && findings.length) {
      res.status(400).json({ error: `This request breaks the contract (${findings.length} finding${findings.length === 1 ? '' : 's'}); --strict-requests answers it with 400.`, findings });
      return;
    }
    next();
  };
}

/**
 * The recording of an exchange: redacted (see `redactExchange`), and refused when redaction would
 * make it invalid. Pure: runs in any runtime.
 * @module
 */
import { API_PREFIX, operationOfPath, type OperationName } from '../contract/core.js';
import { PrefixedError } from '../errors.js';
import { matchKey } from './match-key.js';
import type { NormalisationPolicy } from './policy.js';
import type { Recording } from './recording.js';
import { redactExchange, type Exchange } from './redact.js';
import type { Redaction } from './scrub.js';

/** A redacted recording, with the replacements made outside the secrets' own places. */
export interface RedactedExchange {
  recording: Recording;
  redactions: Redaction[];
  /** The total count of {@link redactions}. */
  leaks: number;
}

/**
 * Thrown by {@link buildRecording} when redacting a secret would make the recording invalid: the
 * secret appears in the path, in a parameter of the match key, or breaks the JSON body. Nothing may be
 * stored then (storing it unredacted would leak the secret).
 */
export class RedactionRefusedError extends PrefixedError {
  readonly code = 'EREDACTION';
  constructor(message: string) {
    super(message);
    this.name = 'RedactionRefusedError';
  }
}

/** True when `text` is JSON. */
function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * One line listing redactions: `_st in response.body (base64) ×2; cookie sid in response.headers.x-echo (raw)`.
 * Empty for none.
 */
export function describeRedactions(redactions: readonly Redaction[]): string {
  return redactions
    .map((r) => `${r.secret} in ${r.where} (${r.encoding})${r.count > 1 ? ` ×${r.count}` : ''}`)
    .join('; ');
}

/**
 * Turns an exchange into the recording that is stored, redacted by {@link redactExchange}: secrets
 * (`_st`) become `<SERVICE_TOKEN>`, identifiers and secret header and cookie values `<REDACTED>`,
 * and every echo of them is replaced and listed in `redactions`.
 *
 * @throws Error when the path is not one of the six operations (callers check first).
 * @throws RedactionRefusedError when a redaction would make the recording invalid: a secret in the
 *   path, in a parameter of the match key, or a body that is JSON no longer being JSON.
 * @example buildRecording(exchange, DEFAULT_POLICY).recording.request.query // [['_st', '<SERVICE_TOKEN>'], ...]
 * @see docs/contract.md#authentication: write the token as <SERVICE_TOKEN>.
 */
export function buildRecording(exchange: Exchange, policy: NormalisationPolicy): RedactedExchange {
  const operation: OperationName | undefined = operationOfPath(exchange.path);
  if (!operation)
    throw new PrefixedError(
      `${exchange.path} is not an operation under /api/g1; only the six operations are recorded.`,
    );
  const parts = redactExchange(exchange, policy);
  const method = exchange.method.toUpperCase();
  const request = `${method} ${exchange.path}`;
  const refuse = (where: string, why: string) => {
    const found = parts.redactions.filter((r) => r.where.startsWith(where));
    throw new RedactionRefusedError(
      `Refused to record ${request}: ${describeRedactions(found)}, and ${why}. Nothing was written. If that value is not secret, take it out of --secret/--identity/--secret-cookie; otherwise record a session whose secrets do not appear there.`,
    );
  };
  if (parts.path !== exchange.path) refuse('request.path', 'replacing it would change the path');
  const key = matchKey(method, operation, parts.query, policy);
  if (key !== matchKey(method, operation, exchange.query, policy))
    refuse('request.query', 'replacing it would change the match key, so replay could not find the recording');
  if (parts.body.body !== undefined && parts.redactions.some((r) => r.where === 'response.body')) {
    const original = new TextDecoder().decode(exchange.body);
    if (isJson(original) && !isJson(parts.body.body))
      refuse('response.body', 'replacing it would make the JSON body invalid');
  }
  const recording: Recording = {
    operation,
    matchKey: key,
    recordedAt: exchange.recordedAt,
    // Exactly the operation's path, whatever prefix or spelling reached it: drift sends the token there.
    request: { method, path: `${API_PREFIX}/${operation}`, query: parts.query, headers: parts.requestHeaders },
    response: { status: exchange.status, headers: parts.responseHeaders, ...parts.body },
  };
  return { recording, redactions: parts.redactions, leaks: parts.redactions.reduce((n, r) => n + r.count, 0) };
}

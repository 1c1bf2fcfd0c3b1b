/**
 * Redaction of one exchange, for a recording or the journal: secret parameters, credential headers
 * and secret cookies replaced where they belong, then every echo of them scrubbed (see `scrubber`).
 * Pure: runs in any runtime.
 * @module
 */
import { SERVICE_TOKEN_PLACEHOLDER } from '../contract/core.js';
import { storeBody, toBase64, toBinaryString, type StoredBody } from './body.js';
import { redactCookieHeader, redactSetCookie } from './cookies.js';
import { REDACTED, type NormalisationPolicy } from './policy.js';
import { decodeComponent, type RawPair } from './query.js';
import { scrubber, type Redaction, type Secret } from './scrub.js';

/** One HTTP exchange as seen on the wire, before redaction. Header names in any case. */
export interface Exchange {
  method: string;
  /** The URL path as sent, e.g. `/api/g1/meta/cp`. */
  path: string;
  /** The raw query pairs in the order sent. */
  query: readonly RawPair[];
  requestHeaders: Readonly<Record<string, string>>;
  status: number;
  responseHeaders: Readonly<Record<string, string>>;
  /** The response body bytes, already decoded when the upstream compressed them. */
  body: Uint8Array;
  /** ISO 8601 time of the exchange. */
  recordedAt: string;
}

/** An exchange with every secret replaced: what recordings and the journal store. */
export interface RedactedParts {
  path: string;
  /** The raw query pairs, secrets and identifiers replaced by their placeholders. */
  query: Array<[string, string]>;
  requestHeaders: Record<string, string>;
  responseHeaders: Record<string, string>;
  body: StoredBody;
  /** Every replacement outside a secret's own parameter or header. */
  redactions: Redaction[];
}

/** Request headers that are not stored: per-hop, or set by the connection. */
export const UNSTORED_REQUEST_HEADERS: ReadonlySet<string> = new Set([
  'host',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
  'upgrade',
  'te',
  'trailer',
  'proxy-connection',
]);
/** Response headers that are not stored: per-hop, or no longer true of the stored (decoded) body. */
const UNSTORED_RESPONSE_HEADERS = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
  'content-encoding',
  'date',
]);

/** The secrets of a header value (pushed to `secrets`), and the stored value. */
function headerSecrets(name: string, value: string, policy: NormalisationPolicy, secrets: Secret[]): string {
  if (!policy.headers.includes(name)) return value;
  if (name === 'cookie' || name === 'set-cookie') {
    const redacted = (name === 'cookie' ? redactCookieHeader : redactSetCookie)(value, policy.secretCookies, REDACTED);
    for (const secret of redacted.secrets)
      secrets.push({ label: `cookie ${secret.name}`, value: secret.value, placeholder: REDACTED, kind: 'secret' });
    return redacted.text;
  }
  secrets.push({ label: name, value, placeholder: REDACTED, kind: 'secret' });
  // `Bearer abc…`, `Basic abc…`: the credential alone may be echoed too.
  const credential = /^\s*[A-Za-z][\w-]*\s+(\S+)\s*$/.exec(value)?.[1];
  if (credential) secrets.push({ label: name, value: credential, placeholder: REDACTED, kind: 'secret' });
  return REDACTED;
}

/**
 * Redacts an exchange under `policy`, for a recording or the journal alike:
 *
 * - the values of secret parameters (`_st`) become `<SERVICE_TOKEN>`, of identity parameters
 *   `<REDACTED>` (unless `policy.keepIdentity`), in the query;
 * - credential headers (`Authorization`, `policy.headers`) become `<REDACTED>`; in `Cookie` and
 *   `Set-Cookie` only the values of secret cookies (see `isSecretCookie`), never other cookies or
 *   attributes;
 * - then the path, the other parameters, every header and the body are scanned: a secret value of at
 *   least `MIN_SCANNED_LENGTH` characters in any encoding (see `scrubber`), an identifier
 *   of that length as a whole JSON string or URL query value, and any value under a secret or identity
 *   name (`"_st":"…"`, `_st=…`) whatever its length. Each replacement is listed in `redactions`.
 *
 * Never throws. See `buildRecording` for the checks that a recording stays valid.
 * @example redactExchange(exchange, DEFAULT_POLICY).redactions // [{ secret: '_st', where: 'response.body', encoding: 'base64', count: 1 }]
 */
export function redactExchange(exchange: Exchange, policy: NormalisationPolicy): RedactedParts {
  const secrets: Secret[] = [];
  const named = new Map<string, string>();
  for (const name of policy.secret) named.set(name, SERVICE_TOKEN_PLACEHOLDER);
  if (!policy.keepIdentity) for (const name of policy.identity) named.set(name, REDACTED);
  const own = new Set<number>();
  const query: Array<[string, string]> = exchange.query.map(([rawName, rawValue], i) => {
    const name = decodeComponent(rawName);
    const placeholder = named.get(name);
    if (placeholder === undefined) return [rawName, rawValue];
    const kind = policy.secret.includes(name) ? 'secret' : 'identity';
    const value = decodeComponent(rawValue);
    secrets.push({ label: name, value, placeholder, kind });
    // The value as sent too, when it is not simply a percent-encoding of the decoded one (it has a malformed escape).
    if (/%(?![0-9A-Fa-f]{2})/.test(rawValue)) secrets.push({ label: name, value: rawValue, placeholder, kind });
    own.add(i);
    return [rawName, placeholder];
  });
  for (const value of policy.secretValues)
    secrets.push({ label: 'secret value', value, placeholder: SERVICE_TOKEN_PLACEHOLDER, kind: 'secret' });
  const storedHeaders = (headers: Readonly<Record<string, string>>, unstored: ReadonlySet<string>) => {
    // No prototype: a header named `constructor` or `__proto__` is a header like any other.
    const out: Record<string, string> = Object.create(null);
    for (const [rawName, value] of Object.entries(headers)) {
      const name = rawName.toLowerCase();
      if (!unstored.has(name)) out[name] = headerSecrets(name, value, policy, secrets);
    }
    return out;
  };
  const requestHeaders = storedHeaders(exchange.requestHeaders, UNSTORED_REQUEST_HEADERS);
  const responseHeaders = storedHeaders(exchange.responseHeaders, UNSTORED_RESPONSE_HEADERS);
  const redactions: Redaction[] = [];
  const scan = scrubber(secrets, { named, redactions });
  const scanHeaders = (headers: Record<string, string>, side: string) => {
    for (const name of Object.keys(headers))
      if (headers[name] !== REDACTED) headers[name] = scan(headers[name]!, `${side}.headers.${name}`);
  };
  scanHeaders(requestHeaders, 'request');
  scanHeaders(responseHeaders, 'response');
  const scannedQuery = query.map(([name, value], i): [string, string] =>
    own.has(i) ? [name, value] : [name, scan(value, `request.query.${decodeComponent(name)}`)],
  );
  const stored = storeBody(exchange.body);
  const body: StoredBody =
    stored.body !== undefined
      ? { body: scan(stored.body, 'response.body') }
      : {
          bodyBase64: toBase64(
            Uint8Array.from(scan(toBinaryString(exchange.body), 'response.body', true), (c) => c.charCodeAt(0)),
          ),
        };
  return {
    path: scan(exchange.path, 'request.path'),
    query: scannedQuery,
    requestHeaders,
    responseHeaders,
    body,
    redactions,
  };
}

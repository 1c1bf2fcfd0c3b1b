/* eslint-disable max-lines -- over 300 lines after formatting; to be split by concept (issue 32, item 4). */
import { API_PREFIX, SERVICE_TOKEN_PLACEHOLDER, operationOfPath, type OperationName } from '../contract/core.js';
import { PREFIX } from '../errors.js';
import { storeBody, toBase64, toBinaryString, type StoredBody } from './body.js';
import { redactCookieHeader, redactSetCookie } from './cookies.js';
import { matchKey } from './match-key.js';
import { REDACTED, type NormalisationPolicy } from './policy.js';
import { decodeComponent, type RawPair } from './query.js';
import type { Recording } from './recording.js';
import { findDecoded, type Needle, type Span } from './search-text.js';
import { MIN_SCANNED_LENGTH, secretForms, type SecretEncoding } from './secret-forms.js';

export { MIN_SCANNED_LENGTH, encodedForms } from './secret-forms.js';

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

/**
 * Where a redaction replaced something outside the secret's own parameter or header, and how it
 * was written there. `where` is a field of the recording (`response.body`,
 * `response.headers.x-echo`, `request.query.ref`); `secret` names the secret (`_st`, `cookie sid`,
 * `authorization`, `_sdevid`); `encoding` is how it was found: one of {@link SecretEncoding}, `named`
 * (a value under a secret's own name: `"_st":"…"`, `_st=…`) or `whole-value` (an identifier as a
 * whole JSON string or URL query value).
 */
export interface Redaction {
  secret: string;
  where: string;
  encoding: SecretEncoding | 'named' | 'whole-value';
  count: number;
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
export class RedactionRefusedError extends Error {
  readonly code = 'EREDACTION';
  constructor(message: string) {
    super(`${PREFIX} ${message}`);
    this.name = 'RedactionRefusedError';
  }
}

/** Request headers that are not stored: per-hop, or set by the connection. */
const UNSTORED_REQUEST_HEADERS = new Set([
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

/** A value to look for: a secret (found as any substring, in every encoding) or an identifier (found as a whole value). */
interface Secret {
  label: string;
  value: string;
  placeholder: string;
  kind: 'secret' | 'identity';
}

/** Counts replacements by secret, place and encoding. */
class Tally {
  readonly #counts = new Map<string, Redaction>();
  add(secret: string, where: string, encoding: Redaction['encoding']): void {
    const key = `${secret}\u0000${where}\u0000${encoding}`;
    const known = this.#counts.get(key);
    if (known) known.count++;
    else this.#counts.set(key, { secret, where, encoding, count: 1 });
  }
  list(): Redaction[] {
    return [...this.#counts.values()];
  }
}

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** What comes before an URL query value: `?name=`, `&name=`, a query string's first `name=` (also `\u0026` and `%26` for `&`, `%3D` and `\u003d` for `=`). */
const URL_VALUE_BEFORE = /(?:^|[?&;"]|\\[uU]0026|%26)[^=&?#\s"\\]{1,64}(?:=|%3[dD]|\\[uU]003[dD])$/;
/** What comes after an URL query value. */
const URL_VALUE_AFTER = /^(?:[&#;"'\s\\<>]|%26|$)/;

/** True when `span` of `text` is a whole value: a JSON string's, an URL query value or the whole text. */
function isWholeValue(text: string, { start, end }: Span): boolean {
  if (start === 0 && end === text.length) return true;
  const before = text.slice(Math.max(0, start - 80), start);
  const after = text.slice(end, end + 6);
  // A quote, or an escaped one (`\"…\"`: JSON inside a JSON string), on both sides.
  return (
    (before.endsWith('"') && /^\\*"/.test(after)) || (URL_VALUE_BEFORE.test(before) && URL_VALUE_AFTER.test(after))
  );
}

/** How an occurrence of a secret's plain value was written. */
function textEncoding(written: string, value: string): SecretEncoding {
  if (written === value) return 'raw';
  if (written.includes('\\')) return 'json-escape';
  if (written.includes('%') || written.includes('+')) return 'percent';
  return 'raw';
}

/** Patterns for values under secret or identity names: `"_st": "…"` in JSON and `_st=…` in URLs, whatever the value's length. */
function namedPatterns(placeholders: ReadonlyMap<string, string>): { json: RegExp; url: RegExp } | undefined {
  if (placeholders.size === 0) return undefined;
  const names = [...placeholders.keys()].map(escapeRegex).join('|');
  return {
    json: new RegExp(`("(${names})"\\s*:\\s*")((?:[^"\\\\]|\\\\.)*)(")`, 'g'),
    url: new RegExp(`((?:[?&;"]|\\\\[uU]0026|%26|^)(${names})(?:=|%3[dD]))([^&#;\\s"'\\\\<>]*)`, 'g'),
  };
}

/** The secrets of a header value, and the stored value. */
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

/** The scanner of one exchange: replaces every secret in a text and tallies where. */
function scanner(secrets: readonly Secret[], named: ReadonlyMap<string, string>, tally: Tally) {
  const seen = new Set<string>();
  const scanned = secrets
    .filter(
      (s) =>
        s.value.length >= MIN_SCANNED_LENGTH && s.value !== s.placeholder && !seen.has(s.value) && seen.add(s.value),
    )
    .sort((a, b) => b.value.length - a.value.length);
  const namedRegex = namedPatterns(named);
  type Label = { secret: Secret; encoding: SecretEncoding | 'whole-value' };
  const needlesOf = (binary: boolean): Array<Needle<Label>> =>
    scanned.flatMap((secret): Array<Needle<Label>> =>
      secret.kind === 'secret'
        ? secretForms(secret.value, binary).map((form) => ({
            text: form.text,
            label: { secret, encoding: form.encoding },
            ...(form.anyCase ? { anyCase: true } : {}),
          }))
        : [
            {
              text: secretForms(secret.value, binary).find((form) => form.encoding === 'raw')!.text,
              label: { secret, encoding: 'whole-value' as const },
            },
          ],
    );
  const needles = { text: needlesOf(false), binary: undefined as Array<Needle<Label>> | undefined };
  return (text: string, where: string, binary = false): string => {
    if (text === '') return text;
    let out = text;
    const wanted = binary ? (needles.binary ??= needlesOf(true)) : needles.text;
    const spans = findDecoded(
      text,
      wanted,
      binary,
      (span, label) => label.encoding !== 'whole-value' || isWholeValue(text, span),
    );
    if (spans.length) {
      let rebuilt = '';
      let at = 0;
      for (const { start, end, label } of spans) {
        const placeholder = binary
          ? String.fromCharCode(...new TextEncoder().encode(label.secret.placeholder))
          : label.secret.placeholder;
        const written = text.slice(start, end);
        tally.add(
          label.secret.label,
          where,
          label.encoding === 'raw'
            ? textEncoding(written, binary ? wanted.find((n) => n.label === label)!.text : label.secret.value)
            : label.encoding,
        );
        rebuilt += text.slice(at, start) + placeholder;
        at = end;
      }
      out = rebuilt + text.slice(at);
    }
    if (namedRegex) {
      const under = (name: string, value: string, before: string, after: string, whole: string) => {
        const placeholder = named.get(name)!;
        if (value === '' || value === placeholder || value === SERVICE_TOKEN_PLACEHOLDER || value === REDACTED)
          return whole;
        tally.add(name, where, 'named');
        return `${before}${placeholder}${after}`;
      };
      out = out.replace(namedRegex.json, (whole, before: string, name: string, value: string, after: string) =>
        under(name, value, before, after, whole),
      );
      out = out.replace(namedRegex.url, (whole, before: string, name: string, value: string) =>
        under(name, value, before, '', whole),
      );
    }
    return out;
  };
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
 *   least {@link MIN_SCANNED_LENGTH} characters in any encoding (see `secretPattern`), an identifier
 *   of that length as a whole JSON string or URL query value, and any value under a secret or identity
 *   name (`"_st":"…"`, `_st=…`) whatever its length. Each replacement is listed in `redactions`.
 *
 * Never throws. See {@link buildRecording} for the checks that a recording stays valid.
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
  const tally = new Tally();
  const scan = scanner(secrets, named, tally);
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
    redactions: tally.list(),
  };
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
    throw new Error(
      `${PREFIX} ${exchange.path} is not an operation under /api/g1; only the six operations are recorded.`,
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

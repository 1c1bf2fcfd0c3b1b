import { SERVICE_TOKEN_PLACEHOLDER, operationOfPath, type OperationName } from '../contract/core.js';
import { fromBase64, storeBody, toBase64, toBinaryString } from './body.js';
import { matchKey } from './match-key.js';
import { REDACTED, type NormalisationPolicy } from './policy.js';
import { decodeComponent, type RawPair } from './query.js';
import type { Recording } from './recording.js';

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

/** A redacted recording, with how many leaked raw values the scan replaced. */
export interface RedactedExchange {
  recording: Recording;
  /** Occurrences of a redacted raw value found (and replaced) outside its own parameter or header. */
  leaks: number;
}

/** Request headers that are not stored: per-hop, or set by the connection. */
const UNSTORED_REQUEST_HEADERS = new Set(['host', 'connection', 'keep-alive', 'transfer-encoding', 'content-length', 'upgrade', 'te', 'trailer', 'proxy-connection']);
/** Response headers that are not stored: per-hop, or no longer true of the stored (decoded) body. */
const UNSTORED_RESPONSE_HEADERS = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'content-encoding', 'date']);

/** Shorter values are not scanned for: they cannot be told apart from ordinary text. */
export const MIN_SCANNED_LENGTH = 4;

interface Secret {
  value: string;
  placeholder: string;
}

function lowerHexEscapes(text: string): string {
  return text.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase());
}

/**
 * Every form in which `value` can appear in a URL, a header or a JSON body: plain,
 * percent-encoded (upper and lower hex, `%20` or `+` for a space, with and without the reserved
 * characters left alone) and JSON-escaped (with `&` as `\u0026`, as the service writes it).
 */
export function encodedForms(value: string): string[] {
  const component = encodeURIComponent(value);
  const uri = encodeURI(value);
  const json = JSON.stringify(value).slice(1, -1);
  const forms = [value, component, lowerHexEscapes(component), component.replace(/%20/g, '+'), lowerHexEscapes(component).replace(/%20/g, '+'), uri, lowerHexEscapes(uri), json, json.replace(/&/g, '\\u0026')];
  return [...new Set(forms)].filter((f) => f.length >= MIN_SCANNED_LENGTH).sort((a, b) => b.length - a.length);
}

function utf8Binary(text: string): string {
  return String.fromCharCode(...new TextEncoder().encode(text));
}

/** A secret ready to scan for: its encoded forms (see {@link encodedForms}), computed once per recording. */
interface ScannedSecret {
  forms: readonly string[];
  /** The forms with percent-escapes, as patterns that take each escape's hex digits in either case (`%2f` or `%2F` within one string). */
  escaped: readonly RegExp[];
  placeholder: string;
  /**
   * True when scanning for this secret a second time changes nothing, whatever was replaced in
   * between: none of the characters its forms and patterns match (letters of a form with escapes in
   * either case) is one of the placeholders', so no occurrence can appear across a placeholder put
   * in by a scan. A later duplicate of such a secret is skipped.
   */
  rescanIsNoop: boolean;
}

/** The characters of the placeholders a scan puts in. */
const PLACEHOLDER_CHARACTERS = new Set([...REDACTED, ...SERVICE_TOKEN_PLACEHOLDER]);

function scannedSecret(value: string, placeholder: string): ScannedSecret {
  const forms = encodedForms(value);
  const escaped = forms
    .filter((form) => /%[0-9A-Fa-f]{2}/.test(form))
    .map((form) => new RegExp(form.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/%([0-9A-Fa-f])([0-9A-Fa-f])/g, (_m, a: string, b: string) => `%[${a.toLowerCase()}${a.toUpperCase()}][${b.toLowerCase()}${b.toUpperCase()}]`), 'g'));
  const matched = forms.flatMap((form) => (form.includes('%') ? [...form, ...form.toLowerCase(), ...form.toUpperCase()] : [...form]));
  return { forms, escaped, placeholder, rescanIsNoop: !matched.some((c) => PLACEHOLDER_CHARACTERS.has(c)) };
}

/** The most secrets kept ready to scan for (see {@link scannedSecretOf}). */
const MAX_SCANNED_SECRETS = 512;

/** Secrets ready to scan for, by placeholder and value: a client sends the same token and identifiers with every request. */
const scannedSecrets = new Map<string, ScannedSecret>();

/**
 * {@link scannedSecret}, remembered: the forms and patterns of a value are the same at every request
 * (the patterns are global regular expressions, but `String.prototype.replace` starts each one from 0).
 */
function scannedSecretOf(value: string, placeholder: string): ScannedSecret {
  const key = `${placeholder}\u0000${value}`;
  let scanned = scannedSecrets.get(key);
  if (!scanned) {
    if (scannedSecrets.size >= MAX_SCANNED_SECRETS) scannedSecrets.clear();
    scanned = scannedSecret(value, placeholder);
    scannedSecrets.set(key, scanned);
  }
  return scanned;
}

/** Replaces every form of every secret in `text`; counts the replacements in `counter`. */
function scrub(text: string, secrets: readonly ScannedSecret[], counter: { leaks: number }, binary = false): string {
  let out = text;
  // A replacement never puts a `%` in (placeholders have none), so text without one never gets one.
  let mayHaveEscapes = out.includes('%');
  for (const secret of secrets) {
    const placeholder = binary ? utf8Binary(secret.placeholder) : secret.placeholder;
    for (const form of secret.forms) {
      const needle = binary ? utf8Binary(form) : form;
      if (!out.includes(needle)) continue;
      const parts = out.split(needle);
      counter.leaks += parts.length - 1;
      out = parts.join(placeholder);
    }
    // Escapes in mixed case (`tok%2fen%2B`): percent-encoded text is ASCII, so the same pattern serves the binary form.
    if (mayHaveEscapes && (mayHaveEscapes = out.includes('%'))) {
      for (const pattern of secret.escaped) {
        out = out.replace(pattern, () => {
          counter.leaks++;
          return placeholder;
        });
      }
    }
  }
  return out;
}

function storedHeaders(headers: Readonly<Record<string, string>>, unstored: ReadonlySet<string>, policy: NormalisationPolicy, secrets: Secret[]) {
  const out: Record<string, string> = {};
  for (const [rawName, value] of Object.entries(headers)) {
    const name = rawName.toLowerCase();
    if (unstored.has(name)) continue;
    if (policy.headers.includes(name)) {
      out[name] = REDACTED;
      secrets.push({ value, placeholder: REDACTED });
      // A cookie's value alone may show up elsewhere too.
      for (const part of value.split(/[;,]/)) {
        const at = part.indexOf('=');
        if (at >= 0) secrets.push({ value: part.slice(at + 1).trim(), placeholder: REDACTED });
      }
    } else out[name] = value;
  }
  return out;
}

/**
 * Turns an exchange into the recording that is stored: secrets (`_st`) become `<SERVICE_TOKEN>`,
 * identifiers become `<REDACTED>` (unless `policy.keepIdentity`), credential headers become
 * `<REDACTED>`; then the URL, every header and the body are scanned for the raw values of all of
 * them in every encoding ({@link encodedForms}) and any leak is replaced. Values shorter than
 * {@link MIN_SCANNED_LENGTH} characters are replaced in their own parameter only.
 *
 * @throws Error when the path is not one of the six operations (callers check first).
 * @example buildRecording(exchange, DEFAULT_POLICY).recording.request.query // [['_st', '<SERVICE_TOKEN>'], ...]
 * @see docs/contract.md#authentication: write the token as <SERVICE_TOKEN>.
 */
export function buildRecording(exchange: Exchange, policy: NormalisationPolicy): RedactedExchange {
  const operation: OperationName | undefined = operationOfPath(exchange.path);
  if (!operation) throw new Error(`[mockvideo] ${exchange.path} is not an operation under /api/g1; only the six operations are recorded.`);
  const secrets: Secret[] = [];
  const query: Array<[string, string]> = exchange.query.map(([rawName, rawValue]) => {
    const name = decodeComponent(rawName);
    const placeholder = policy.secret.includes(name) ? SERVICE_TOKEN_PLACEHOLDER : policy.identity.includes(name) && !policy.keepIdentity ? REDACTED : undefined;
    if (placeholder === undefined) return [rawName, rawValue];
    secrets.push({ value: decodeComponent(rawValue), placeholder }, { value: rawValue, placeholder });
    return [rawName, placeholder];
  });
  const requestHeaders = storedHeaders(exchange.requestHeaders, UNSTORED_REQUEST_HEADERS, policy, secrets);
  const responseHeaders = storedHeaders(exchange.responseHeaders, UNSTORED_RESPONSE_HEADERS, policy, secrets);
  const scan: ScannedSecret[] = [];
  // A value usually comes twice (decoded and raw are the same text): a second scan for it is skipped when it cannot find anything new.
  const scanned = new Set<ScannedSecret>();
  for (const secret of secrets) {
    if (secret.value.length < MIN_SCANNED_LENGTH || secret.value === secret.placeholder) continue;
    const ready = scannedSecretOf(secret.value, secret.placeholder);
    if (ready.rescanIsNoop && scanned.has(ready)) continue;
    scanned.add(ready);
    scan.push(ready);
  }
  const counter = { leaks: 0 };
  const scrubbedQuery: Array<[string, string]> = query.map(([name, value]) => [scrub(name, scan, counter), value === SERVICE_TOKEN_PLACEHOLDER || value === REDACTED ? value : scrub(value, scan, counter)]);
  const scrubHeaders = (headers: Record<string, string>) => Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, value === REDACTED ? value : scrub(value, scan, counter)]));
  const stored = storeBody(exchange.body);
  const body = stored.body !== undefined ? { body: scrub(stored.body, scan, counter) } : { bodyBase64: toBase64(Uint8Array.from(scrub(toBinaryString(fromBase64(stored.bodyBase64)), scan, counter, true), (c) => c.charCodeAt(0))) };
  const path = scrub(exchange.path, scan, counter);
  const method = exchange.method.toUpperCase();
  const recording: Recording = {
    operation,
    matchKey: matchKey(method, operation, scrubbedQuery, policy),
    recordedAt: exchange.recordedAt,
    request: { method, path, query: scrubbedQuery, headers: scrubHeaders(requestHeaders) },
    response: { status: exchange.status, headers: scrubHeaders(responseHeaders), ...body },
  };
  return { recording, leaks: counter.leaks };
}

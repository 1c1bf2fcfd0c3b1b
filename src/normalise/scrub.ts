/**
 * The one secret scrubber: finds secret values in a text however they are written (raw, percent- or
 * JSON-escaped, base64, hex; see `secretForms` and `searcher`), values under a secret's own name
 * (`"_st":"…"`, `_st=…`), and replaces them with their placeholders. Record, import, the journal,
 * drift and `from-recordings` all scrub with it. Pure: runs in any runtime.
 * @module
 */
import { SERVICE_TOKEN_PLACEHOLDER } from '../contract/core.js';
import { REDACTED, type NormalisationPolicy } from './policy.js';
import { decodeComponent } from './query.js';
import { escapeRegex, searcher, type Needle, type Span } from './search-text.js';
import { MIN_SCANNED_LENGTH, secretForms, type SecretEncoding } from './secret-forms.js';

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

/**
 * A value to scrub: a `secret` is found as any substring in every encoding; an `identity` (a device
 * id) only as a whole JSON string or URL query value, as written. `label` names it in a
 * {@link Redaction} (`_st`, `cookie sid`).
 */
export interface Secret {
  label: string;
  value: string;
  placeholder: string;
  kind: 'secret' | 'identity';
}

/** Replaces the secrets of a text; `where` names the text in the redactions, `binary` for a text of one byte per character. */
export type Scrub = (text: string, where?: string, binary?: boolean) => string;

/** `&` between query parameters as a regex source: itself, `\u0026` (Gson), `%26` or `%2526` (in a link nested once or twice). */
const AMPERSAND = String.raw`\\[uU]0026|%(?:25)?26`;
/** `?` before a nested link's first parameter as a regex source: `%3F` or `%253F` (a raw `?` is in each pattern's own set). */
const QUESTION = '%(?:25)?3[fF]';
/** `=` after a parameter name as a regex source: itself, `%3D` or `%253D` (nested links), `\u003d`. */
const EQUALS = String.raw`=|%(?:25)?3[dD]|\\[uU]003[dD]`;

/** What comes before an URL query value: `?name=`, `&name=`, a query string's first `name=` (`&` and `=` in any spelling above). */
const URL_VALUE_BEFORE = new RegExp(String.raw`(?:^|[?&;"]|${AMPERSAND}|${QUESTION})[^=&?#\s"\\]{1,64}(?:${EQUALS})$`);
/** What comes after an URL query value. */
const URL_VALUE_AFTER = new RegExp(String.raw`^(?:[&#;"'\s\\<>]|${AMPERSAND}|$)`);

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

/** How an occurrence of a secret's plain form was written. */
function textEncoding(written: string, plain: string): SecretEncoding {
  if (written === plain) return 'raw';
  if (written.includes('\\')) return 'json-escape';
  if (written.includes('%') || written.includes('+')) return 'percent';
  return 'raw';
}

/** Patterns for values under secret or identity names: `"_st": "…"` in JSON and `_st=…` in URLs, whatever the value's length. */
function namedPatterns(names: Iterable<string>): RegExp[] {
  const alternatives = [...names].map(escapeRegex).join('|');
  if (!alternatives) return [];
  return [
    new RegExp(`("(${alternatives})"\\s*:\\s*")((?:[^"\\\\]|\\\\.)*)(")`, 'g'),
    new RegExp(`((?:[?&;"]|${AMPERSAND}|${QUESTION}|^)(${alternatives})(?:${EQUALS}))([^&#;\\s"'\\\\<>]*)()`, 'g'),
  ];
}

type Label = { secret: Secret; encoding: SecretEncoding | 'whole-value'; plain: string };

/**
 * The scrubber of a set of secrets: every occurrence of a secret of at least
 * {@link MIN_SCANNED_LENGTH} characters in any encoding, of an identity as a whole value, and
 * (with `named`, by parameter name) any value under such a name whatever its length, becomes the
 * placeholder; each replacement is counted in `redactions` (by secret, place and encoding) when
 * given. Never throws.
 *
 * @example scrubber([{ label: '_st', value: 'made-up-token-1', placeholder: '<SERVICE_TOKEN>', kind: 'secret' }])('x=bWFkZS11cC10b2tlbi0x') // 'x=<SERVICE_TOKEN>'
 */
export function scrubber(
  secrets: readonly Secret[],
  { named = new Map(), redactions }: { named?: ReadonlyMap<string, string>; redactions?: Redaction[] } = {},
): Scrub {
  const count = (secret: string, where: string, encoding: Redaction['encoding']) => {
    const known = redactions?.find((r) => r.secret === secret && r.where === where && r.encoding === encoding);
    if (known) known.count++;
    else redactions?.push({ secret, where, encoding, count: 1 });
  };
  const seen = new Set<string>();
  const scanned = secrets
    .filter(
      (s) =>
        s.value.length >= MIN_SCANNED_LENGTH && s.value !== s.placeholder && !seen.has(s.value) && seen.add(s.value),
    )
    .sort((a, b) => b.value.length - a.value.length);
  const patterns = namedPatterns(named.keys());
  const needles = scanned.flatMap((secret) =>
    secretForms(secret.value)
      .filter((form) => secret.kind === 'secret' || form.encoding === 'raw')
      .map((form): Needle<Label> => ({
        text: form.text,
        label: { secret, encoding: secret.kind === 'secret' ? form.encoding : 'whole-value', plain: form.text },
        ...(form.anyCase && secret.kind === 'secret' ? { anyCase: true } : {}),
      })),
  );
  const searchers: Array<ReturnType<typeof searcher<Label>>> = [];
  return (text, where = '', binary = false) => {
    if (text === '') return text;
    const spans = (searchers[+binary] ??= searcher(needles, binary))(
      text,
      (span, label) => label.encoding !== 'whole-value' || isWholeValue(text, span),
    );
    let out = '';
    let at = 0;
    for (const { start, end, label } of spans) {
      const encoding = label.encoding === 'raw' ? textEncoding(text.slice(start, end), label.plain) : label.encoding;
      count(label.secret.label, where, encoding);
      out += text.slice(at, start) + label.secret.placeholder;
      at = end;
    }
    out += text.slice(at);
    for (const pattern of patterns)
      out = out.replace(pattern, (whole, before: string, name: string, value: string, after: string) => {
        const placeholder = named.get(name)!;
        if (value === '' || value === placeholder || value === SERVICE_TOKEN_PLACEHOLDER || value === REDACTED)
          return whole;
        count(name, where, 'named');
        return `${before}${placeholder}${after}`;
      });
    return out;
  };
}

/**
 * The scrubber of the secret and identity parameters among `values` (decoded name → value as sent,
 * percent-encoding kept): each value, as sent and decoded, becomes `<SERVICE_TOKEN>` (a secret
 * parameter) or `<REDACTED>` (an identity parameter, unless `keepIdentity`) wherever and however it
 * is written, as do the policy's `secretValues` and any value under such a name (`_st=…`); other
 * parameters and placeholders are left alone. Drift scrubs live answers and its report with it,
 * `from-recordings` the identifiers kept in recordings, and the near-miss report the request (with
 * `keepIdentity`, as the journal does).
 *
 * @example valueScrubber(new Map([['_st', 'tok%2Bsecret']]), DEFAULT_POLICY)('a tok+secret') // 'a <SERVICE_TOKEN>'
 */
export function valueScrubber(
  values: Iterable<readonly [name: string, value: string]>,
  policy: NormalisationPolicy,
  { keepIdentity = false }: { keepIdentity?: boolean } = {},
): Scrub {
  const named = new Map<string, string>();
  for (const name of policy.secret) named.set(name, SERVICE_TOKEN_PLACEHOLDER);
  if (!keepIdentity) for (const name of policy.identity) named.set(name, REDACTED);
  const secrets: Secret[] = policy.secretValues.map((value) => ({
    label: 'secret value',
    value,
    placeholder: SERVICE_TOKEN_PLACEHOLDER,
    kind: 'secret',
  }));
  for (const [name, raw] of values) {
    const placeholder = named.get(name);
    if (placeholder && raw !== SERVICE_TOKEN_PLACEHOLDER && raw !== REDACTED)
      for (const value of new Set([raw, decodeComponent(raw)]))
        secrets.push({ label: name, value, placeholder, kind: 'secret' });
  }
  return scrubber(secrets, { named });
}

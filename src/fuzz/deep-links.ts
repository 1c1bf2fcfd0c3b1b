/**
 * Deep-link arbitraries: nested links (`default`, `back_scheme`) with usual and unusual but valid
 * percent-encoding, a content provider's `cp_link`, and the raw query values of a `target`. Links
 * are built with the contract's `buildDeepLink` and `encodeQueryValue`. Any runtime.
 * @module
 */
import fc from 'fast-check';
import { buildDeepLink, encodeQueryValue } from '../contract/deep-link.js';
import { host, scheme, shortId } from './text.js';

/** A deep link `scheme://host?name=value…` with 0–3 plain query parameters. */
export const deepLink: fc.Arbitrary<string> = fc
  .record({
    scheme,
    host,
    query: fc.array(fc.tuple(shortId, fc.string({ unit: 'grapheme-ascii', maxLength: 12 })), { maxLength: 3 }),
  })
  .map((parts) => buildDeepLink(parts));

/** A deep link whose query carries another deep link: inside a `target` that one is percent-encoded twice. */
const nestingDeepLink: fc.Arbitrary<string> = fc
  .record({ scheme, host, inner: deepLink })
  .map(({ scheme: s, host: h, inner }) => buildDeepLink({ scheme: s, host: h, query: [['default', inner]] }));

const UNRESERVED = /[A-Za-z0-9\-_.!~*'()]/;
const hex = (code: number) => code.toString(16).toUpperCase().padStart(2, '0');

/**
 * Re-spells percent-encoded text in ways `decodeURIComponent` reads the same: escapes in lower-case
 * hex, and some unreserved characters escaped too (`%41` for `A`). `flags` says, per character,
 * which re-spelling applies (cycled).
 */
function respell(encoded: string, flags: readonly number[]): string {
  let out = '';
  let k = 0;
  for (let i = 0; i < encoded.length; i++) {
    const flag = flags[k++ % flags.length] ?? 0;
    const ch = encoded[i]!;
    if (ch === '%') {
      const digits = encoded.slice(i + 1, i + 3);
      out += `%${flag === 1 ? digits.toLowerCase() : digits}`;
      i += 2;
    } else if (UNRESERVED.test(ch) && flag === 2) out += `%${hex(ch.charCodeAt(0))}`;
    else if (UNRESERVED.test(ch) && flag === 3) out += `%${hex(ch.charCodeAt(0)).toLowerCase()}`;
    else out += ch;
  }
  return out;
}

/**
 * The raw query value of a nested deep link inside a `target`: a plain link encoded once (the
 * service's way), a link that nests another (that one encoded twice), or either re-spelled by
 * {@link respell} (class `deep-link-unusual-encoding`).
 */
export const nestedLinkValue: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: deepLink.map(encodeQueryValue), weight: 6 },
  { arbitrary: nestingDeepLink.map(encodeQueryValue), weight: 2 },
  {
    arbitrary: fc
      .tuple(
        fc.oneof(deepLink, nestingDeepLink),
        fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 1, maxLength: 8 }),
      )
      .map(([link, flags]) => respell(encodeQueryValue(link), [...flags, 1, 2])),
    weight: 2,
  },
);

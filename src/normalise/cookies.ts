/**
 * Cookies in recordings: only the values of cookies named as secret are redacted; other cookies and
 * every attribute (`Path`, `Domain`, `Expires`, ...) are kept as sent. Pure: runs in any runtime.
 * @module
 */

/**
 * Cookie names that look like a session, token or credential: their values are secret by default
 * (`sid`, `JSESSIONID`, `auth_token`, `csrftoken`, `remember_me`, ...). `ab`, `region`, `lang` are not.
 */
const SECRET_COOKIE_NAME =
  /sess|sid|token|auth|jwt|csrf|xsrf|login|cred|secret|passw|api[-_]?key|access|refresh|remember|bearer|saml|oauth/i;

/**
 * True when the value of the cookie `name` is secret: its name looks like a session/token/auth
 * cookie ({@link SECRET_COOKIE_NAME}) or is listed in `named` (case-insensitive; `*` names every cookie).
 * @example isSecretCookie('PHPSESSID', []) // true
 * @example isSecretCookie('ab', []) // false
 */
function isSecretCookie(name: string, named: readonly string[]): boolean {
  const lower = name.trim().toLowerCase();
  return SECRET_COOKIE_NAME.test(lower) || named.some((n) => n === '*' || n.toLowerCase() === lower);
}

/** A header value with its secret cookie values replaced, and the values replaced (with their cookie names). */
export interface RedactedCookies {
  text: string;
  secrets: Array<{ name: string; value: string }>;
}

/** A replacer of `name=value` (after `before`) that puts `placeholder` for the value of a secret cookie, and lists it in `secrets`. */
function secretValue(named: readonly string[], placeholder: string, secrets: RedactedCookies['secrets']) {
  return (whole: string, before: string, name: string, raw: string) => {
    if (!isSecretCookie(name, named) || raw.trim() === '' || raw.trim() === placeholder) return whole;
    secrets.push({ name: name.trim(), value: raw.trim().replace(/^"|"$/g, '') });
    return `${before}${name}=${placeholder}`;
  };
}

/**
 * Redacts a `Cookie` request header (`a=1; sid=xyz`): the values of secret cookies become
 * `placeholder`, the rest stays as sent.
 * @example redactCookieHeader('ab=true; sid=x1y2z3', [], '<REDACTED>').text // 'ab=true; sid=<REDACTED>'
 */
export function redactCookieHeader(value: string, named: readonly string[], placeholder: string): RedactedCookies {
  const secrets: RedactedCookies['secrets'] = [];
  const text = value.replace(/((?:^|;)\s*)([^=;]+)=([^;]*)/g, secretValue(named, placeholder, secrets));
  return { text, secrets };
}

/**
 * Redacts `Set-Cookie` header text (several cookies joined with `, ` allowed): in each, only the
 * value of its first `name=value` pair, when the cookie is secret; attributes are never touched.
 * @example redactSetCookie('sid=x1y2z3; Path=/api/g1', [], '<REDACTED>').text // 'sid=<REDACTED>; Path=/api/g1'
 */
export function redactSetCookie(value: string, named: readonly string[], placeholder: string): RedactedCookies {
  const secrets: RedactedCookies['secrets'] = [];
  // A new cookie starts after a comma that is followed by `name=` (an `Expires` date has a comma too, followed by a day number).
  const text = value
    .split(/,(?=\s*[^;,=\s]+=)/)
    .map((cookie) => cookie.replace(/^(\s*)([^=;]+)=([^;]*)/, secretValue(named, placeholder, secrets)))
    .join(',');
  return { text, secrets };
}

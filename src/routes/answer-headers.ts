/**
 * The headers every device-facing answer carries (operations, media, downloads, mockvideo's own
 * errors, and what `record` passes on from its upstream), in every mode and adapter: the body is
 * never a page of mockvideo's origin. `nosniff` keeps a browser from reading JSON or text as HTML or
 * script; the sandboxing policy makes a document opened from it an opaque origin that runs no script,
 * loads nothing and cannot reach the admin API (docs/security.md, "Served bodies").
 */
export const DEVICE_ANSWER_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'x-content-type-options': 'nosniff',
  'content-security-policy': "sandbox; default-src 'none'",
});

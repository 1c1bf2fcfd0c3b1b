/**
 * Reading a start-up bundle back: its runtime schema (zod) and {@link parseBundle}, which names the
 * file and the field of the first problem in one line. Loads zod, so only `loadBundle`
 * (`mockvideo/node`) and `mockvideo replay FILE` load this module. Any runtime.
 * @module
 */
import { z } from 'zod';
import { OPERATION_NAMES } from '../contract/core.js';
import { MockvideoError, formatJsonPath } from '../errors.js';
import { FAULT_KINDS } from '../faults/fault.js';
import { BUNDLE_FORMAT, type Bundle } from './format.js';

const headerMap = z.record(z.string(), z.string());
const isoTime = z.string().refine((s) => !Number.isNaN(Date.parse(s)), 'expected an ISO 8601 time');
const milliseconds = z.number().min(0);
const base64 = z.string().regex(/^[A-Za-z0-9+/]*={0,2}$/, 'expected base64');

const answerSchema = z
  .strictObject({
    status: z.number().int().min(200).max(599),
    headers: headerMap,
    body: z.string().optional(),
    bodyBase64: base64.optional(),
  })
  .refine((a) => (a.body === undefined) !== (a.bodyBase64 === undefined), 'expected one of "body" and "bodyBase64"');

const findingSchema = z.strictObject({ parameter: z.string(), rule: z.string(), message: z.string() });

const exchangeSchema = z.strictObject({
  id: z.number().int(),
  time: isoTime,
  atMs: milliseconds,
  durationMs: milliseconds,
  operation: z.enum(OPERATION_NAMES),
  request: z.strictObject({
    method: z.string().regex(/^[A-Z]+$/, 'expected an upper-case HTTP method'),
    path: z.string().startsWith('/'),
    query: z.array(z.tuple([z.string(), z.string()])),
    headers: headerMap,
  }),
  answer: answerSchema.nullable(),
  fault: z.enum(FAULT_KINDS).nullable(),
  delayMs: milliseconds,
  scenario: z.string().nullable(),
  match: z.string().nullable(),
  recording: z.string().optional(),
  step: z.string().optional(),
  fuzz: z.string().optional(),
  findings: z.array(findingSchema),
});

const ruleSchema = z.strictObject({ rule: z.string(), ok: z.boolean(), message: z.string() });

/** The runtime schema of a bundle file (see `Bundle`). */
const bundleSchema = z.strictObject({
  format: z.literal(BUNDLE_FORMAT),
  mockvideo: z.string(),
  createdAt: isoTime,
  server: z.strictObject({ mode: z.string(), activeScenario: z.string(), state: z.string() }),
  verdict: z.strictObject({
    id: z.number().int(),
    device: z.string(),
    ids: z.array(z.number().int()),
    start: isoTime,
    end: isoTime,
    startUp: z.boolean(),
    ok: z.boolean(),
    rules: z.array(ruleSchema),
    suspect: z.string().optional(),
  }),
  scenarios: z.array(z.strictObject({ name: z.string(), description: z.string(), extends: z.array(z.string()) })),
  clock: z.strictObject({
    now: isoTime,
    nowSeconds: z.number().int(),
    mode: z.enum(['real', 'frozen', 'offset']),
    frozenAt: isoTime.nullable(),
    offsetMs: z.number(),
  }),
  fuzz: z
    .strictObject({
      seed: z.number().int().min(0),
      beyondObserved: z.boolean(),
      integers: z.number().int(),
      perDevice: z.boolean(),
      fixedCase: z.string().nullable(),
      cases: z.array(z.string()),
    })
    .nullable(),
  exchanges: z.array(exchangeSchema).min(1, 'expected at least one exchange'),
});

/** What a value's `format` says when it is not this version's, for the error. */
function formatProblem(value: unknown): string | undefined {
  const format = (value as { format?: unknown } | null)?.format;
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return 'expected a JSON object (a bundle from GET /__mockvideo/start-ups/ID/bundle)';
  if (format === BUNDLE_FORMAT) return undefined;
  return typeof format === 'string' && format.startsWith('mockvideo-bundle/')
    ? `expected "${BUNDLE_FORMAT}", got "${format}": a bundle of another version of mockvideo; download it again from this version`
    : `expected "${BUNDLE_FORMAT}" (is this a start-up bundle?)`;
}

/**
 * Checks a parsed bundle file value against the format (`mockvideo-bundle/1`) and returns it as a
 * {@link Bundle}. `source` names it in the error (its path).
 *
 * @throws MockvideoError (`MV_BUNDLE_INVALID`), one line naming `source`, the field of the first problem
 * and the rule, e.g. `Failed to load the bundle qa/start-up-7.json at exchanges[2].answer.status:
 * expected a number, got string. …`.
 * @example parseBundle(JSON.parse(text), 'qa/start-up-7.json').exchanges.length // 7
 */
export function parseBundle(value: unknown, source: string): Bundle {
  const wrongFormat = formatProblem(value);
  const parsed = wrongFormat ? undefined : bundleSchema.safeParse(value);
  if (parsed?.success) return parsed.data as Bundle;
  const issue = parsed?.error.issues[0];
  const at = wrongFormat ? 'format' : formatJsonPath(issue!.path);
  const more = parsed ? parsed.error.issues.length - 1 : 0;
  throw new MockvideoError(
    'MV_BUNDLE_INVALID',
    `Failed to load the bundle ${source}${at ? ` at ${at}` : ''}: ${wrongFormat ?? issue!.message}${more ? ` (and ${more} more problem${more === 1 ? '' : 's'})` : ''}. Download the bundle again (GET /__mockvideo/start-ups/ID/bundle) or fix that field (see docs/bundles.md).`,
  );
}

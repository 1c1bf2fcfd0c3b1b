/* eslint-disable max-lines -- over 300 lines after formatting; to be split by concept (issue 32, item 4). */
import { z } from 'zod';
import { contentTypeProblem } from '../contract/content-type.js';
import { envelopeSchema } from '../contract/envelope-schema.js';
import { OPERATIONS, OPERATION_NAMES, type OperationName } from '../contract/operations.js';
import type { Fault } from '../faults/fault.js';
import { answerStatusSchema, faultSchema } from '../faults/fault-schema.js';
import { OBJECT_DATA_OPERATIONS } from './inherit-data.js';
import type { RecordedLatency } from '../latency/latency.js';
import { latencySchema } from '../latency/latency-schema.js';

/**
 * A scenario name: lowercase letters, digits and dashes, starting with a letter or digit. Names
 * double as file names (`scenarios/<name>.json`) and URL segments (`/scenarios/<name>/api/g1/...`).
 */
export const SCENARIO_NAME = /^[a-z0-9][a-z0-9-]{0,63}$/;

const queryCondition = z
  .record(z.string(), z.string())
  .describe(
    'Query parameters the request must carry, name → value (the request matches when one of its values for that name is equal).',
  );

const when = z
  .strictObject({ query: queryCondition.optional() })
  .describe('Conditions on the request; a stub without "when" matches every request.');

/** An HTTP header name (RFC 9110 token). */
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** An HTTP header value: tab and printable Latin-1, no control characters (no line break). */
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

function responseShape(data: z.ZodType) {
  return {
    data: data
      .optional()
      .describe(
        'The payload: the "data" field of the envelope. Required unless a fault other than "delay" replaces the answer, or "body" gives the whole text.',
      ),
    msg: z.string().optional().describe('The envelope "msg"; default "OK".'),
    result: z.number().int().optional().describe('The envelope "result"; default 1.'),
    status: answerStatusSchema.optional().describe('The HTTP status; default 200 (200–599, not 204, 205 or 304).'),
    headers: z
      .record(
        z.string(),
        z.string().regex(HEADER_VALUE, 'a header value is Latin-1 text without control characters or line breaks'),
      )
      .superRefine((headers, ctx) => {
        for (const name of Object.keys(headers)) {
          if (!HEADER_NAME.test(name))
            ctx.addIssue({
              code: 'custom',
              path: [name],
              message: `"${name}" is not a header name: an HTTP token (letters, digits, !#$%&'*+-.^_\`|~)`,
            });
        }
        for (const name of Object.keys(headers)) {
          const lower = name.toLowerCase();
          // Both framing headers together make Node clients refuse the answer (issue 34); one alone can lie about the body.
          if (lower === 'transfer-encoding' || lower === 'content-length')
            ctx.addIssue({
              code: 'custom',
              path: [name],
              message: `"${name}" is not set by a stub: mockvideo frames the body itself; remove it`,
            });
        }
        const contentType = contentTypeProblem(headers);
        if (contentType) ctx.addIssue({ code: 'custom', path: ['content-type'], message: contentType });
      })
      .optional()
      .describe('Extra response headers: HTTP token names, Latin-1 values; a content-type is JSON (or text/plain).'),
    fault: faultSchema
      .optional()
      .describe('What goes wrong with this answer: delay, status, envelope, malformed-json, empty, reset or hang.'),
    body: z
      .string()
      .optional()
      .describe(
        'The exact body text, served as written ({origin} still replaced) instead of an envelope made from data, msg and result: a recorded answer kept byte for byte. A 2xx body that is a JSON envelope is checked against the contract.',
      ),
    latency: latencySchema.optional(),
  };
}

function needsData(
  response: { data?: unknown; body?: string; msg?: string; result?: number; fault?: { kind: string } },
  ctx: z.core.$RefinementCtx,
): void {
  if (response.body !== undefined) {
    for (const field of ['data', 'msg', 'result'] as const) {
      if (response[field] !== undefined)
        ctx.addIssue({
          code: 'custom',
          path: [field],
          message: `give either "body" (the exact text) or "${field}", not both`,
        });
    }
  } else if (response.data === undefined && (!response.fault || response.fault.kind === 'delay')) {
    ctx.addIssue({
      code: 'custom',
      path: ['data'],
      message: 'data is required (only a fault other than "delay" answers without it)',
    });
  }
}

/** Checks a stub's `body` text against the contract when it is a 2xx JSON envelope (a failure's body is not shown in the seed). */
function bodyKeepsContract(data: z.ZodType) {
  return (response: { body?: string; status?: number }, ctx: z.core.$RefinementCtx): void => {
    const status = response.status ?? 200;
    if (response.body === undefined || status < 200 || status > 299) return;
    let value: unknown;
    try {
      value = JSON.parse(response.body);
    } catch (error) {
      ctx.addIssue({ code: 'custom', path: ['body'], message: `a 2xx body must be JSON: ${(error as Error).message}` });
      return;
    }
    const result = envelopeSchema(data).safeParse(value);
    if (!result.success)
      for (const issue of result.error.issues)
        ctx.addIssue({ code: 'custom', path: ['body', ...issue.path], message: issue.message });
  };
}

/**
 * The schema of `data` of operation `name`; with `partial`, for an object-valued operation (see
 * `OBJECT_DATA_OPERATIONS`), every field optional: a scenario that `extends` another may give part of
 * the object, the rest comes from the parent (`inheritData`), and the whole is checked after merging.
 */
export function dataSchemaOf(name: OperationName, partial = false): z.ZodType {
  const schema = OPERATIONS[name].dataSchema;
  return partial && OBJECT_DATA_OPERATIONS.includes(name) && schema instanceof z.ZodObject ? schema.partial() : schema;
}

/**
 * The two shapes of a stub for one operation: `single` (a response with an optional `when`) and
 * `sequence` (`{ when?, sequence: [response, …] }`). The parser picks one by the `sequence` key, so
 * its errors name the exact field instead of "no union member matched". `partialData`: see {@link dataSchemaOf}.
 */
export function stubSchemas(name: OperationName, partialData = false) {
  const shape = responseShape(dataSchemaOf(name, partialData));
  const keepsContract = bodyKeepsContract(OPERATIONS[name].dataSchema);
  const response = z.strictObject(shape).superRefine(needsData).superRefine(keepsContract);
  return {
    single: z
      .strictObject({ ...shape, when: when.optional() })
      .superRefine(needsData)
      .superRefine(keepsContract),
    sequence: z.strictObject({
      when: when.optional(),
      sequence: z.array(response).min(1).describe('Responses served in order, one per request; the last one repeats.'),
    }),
  };
}

// The file schema (for editors) takes object data in part: fields left out come from the parent, and
// `mockvideo validate` checks the whole after merging.
function stubSchema(name: OperationName) {
  const { single, sequence } = stubSchemas(name, true);
  return z.union([sequence, single]);
}

function operationSchema(name: OperationName) {
  const stub = stubSchema(name);
  return z
    .union([stub, z.array(stub).min(1)])
    .describe(
      `GET /api/g1/${name}: one stub, or a list of stubs tried in order (the first whose "when" matches answers).`,
    );
}

const operations = z.strictObject(
  Object.fromEntries(OPERATION_NAMES.map((name) => [name, operationSchema(name).optional()])) as Record<
    OperationName,
    z.ZodOptional<ReturnType<typeof operationSchema>>
  >,
);

/** The scenario setting `"state"` (see `StateScope` in `src/state/client-state.ts`). */
const stateSchema = z
  .enum(['client', 'global'])
  .describe(
    'Whose sequences and fault counts a request advances: "client" (per device, started again at each start-up; the default of --state) or "global" (one set for the whole server).',
  );

/**
 * The top level of a scenario file with `operations` left unchecked: the parser checks the top level
 * with this, then each operation with {@link stubSchemas}.
 */
export const scenarioHeaderSchema = z.strictObject({
  $schema: z.string().optional(),
  description: z.string().optional(),
  extends: z
    .string()
    .regex(SCENARIO_NAME, 'extends must name a scenario (lowercase letters, digits, dashes)')
    .optional(),
  operations: z.record(z.string(), z.unknown()),
  faults: z.record(z.string(), z.unknown()).optional(),
  state: stateSchema.optional(),
});

/**
 * The `faults` of a scenario file: operation name (or `*` for every operation) → a fault applied to
 * that operation's answers on top of its stubs (a stub's own `fault` wins). Inherited through
 * `extends`, key by key. Lets a scenario slow down or break answers without repeating their data.
 */
export const scenarioFaultsSchema = z.strictObject(
  Object.fromEntries(['*', ...OPERATION_NAMES].map((name) => [name, faultSchema.optional()])) as Record<
    OperationName | '*',
    z.ZodOptional<typeof faultSchema>
  >,
);

/** A scenario's fault overlay. @see scenarioFaultsSchema */
export type ScenarioFaults = Partial<Record<OperationName | '*', Fault>>;

/**
 * The schema of a scenario file.
 *
 * ```json
 * { "$schema": "./scenario.schema.json", "description": "…", "extends": "default",
 *   "operations": { "ad_config": { "data": {} } } }
 * ```
 * `operations` maps an operation name to a stub or a list of stubs. A stub is a response
 * (`data`, optional `msg`, `result`, `status`, `headers`) or a `sequence` of responses, with an
 * optional `when.query` condition. Data is checked against the contract.
 *
 * @see docs/contract.md#operations for the operation names and payloads.
 */
const scenarioFileSchema = z.strictObject({
  $schema: z.string().optional().describe('Path or URL of this JSON Schema, for editors.'),
  description: z.string().optional().describe('One line that says what this scenario is for.'),
  extends: z
    .string()
    .regex(SCENARIO_NAME, 'extends must name a scenario (lowercase letters, digits, dashes)')
    .optional()
    .describe(
      "A scenario whose operations this one inherits. Operations given here replace the inherited ones, except object-valued data (ad_config, meta/setting, localplay/diversion): fields left out come from the parent's first stub (objects merged, arrays replaced; {} stays empty).",
    ),
  operations: operations.describe('Operation name → stub or list of stubs.'),
  faults: scenarioFaultsSchema
    .optional()
    .describe(
      'Operation name or "*" → a fault applied on top of the stubs (delay, status, envelope, malformed-json, empty, reset, hang).',
    ),
  state: stateSchema.optional(),
});

/** A parsed scenario file. @see scenarioFileSchema */
export type ScenarioFile = z.infer<typeof scenarioFileSchema>;

/** One response of a stub: payload plus envelope and HTTP overrides, or the exact body text. */
export interface StubResponse {
  data?: unknown;
  /** The exact body text, instead of the envelope of `data`, `msg` and `result`. */
  body?: string;
  fault?: Fault;
  latency?: RecordedLatency;
  msg?: string;
  result?: number;
  status?: number;
  headers?: Record<string, string>;
}

/** A stub: an optional condition and one response or a sequence of responses. */
export interface Stub {
  when?: { query?: Record<string, string> };
  /** Present for a sequence stub. */
  sequence?: StubResponse[];
  /** Present for a single-response stub. */
  data?: unknown;
  body?: string;
  msg?: string;
  result?: number;
  status?: number;
  headers?: Record<string, string>;
  fault?: Fault;
  latency?: RecordedLatency;
}

/**
 * The JSON Schema of scenario files, generated from the contract (draft 2020-12). Written to
 * `scenarios/scenario.schema.json` by `npm run generate:scenarios` so editors autocomplete and
 * validate; refinements that JSON Schema cannot say (e.g. `position` indexes) are checked by
 * `mockvideo validate`.
 */
export function scenarioJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(scenarioFileSchema, { unrepresentable: 'any', io: 'input', reused: 'ref' }) as Record<
    string,
    unknown
  >;
  return { ...withStubConditions(schema), title: 'mockvideo scenario' };
}

type JsonSchema = Record<string, unknown>;

/**
 * `schema` with each `anyOf` between the shapes of a stub made an `if`/`then`/`else` on what tells
 * them apart: a list of stubs (`type: array`) or one, a `sequence` stub or a single response. With
 * `anyOf`, an editor reports the first shape's complaint ("must have required property 'sequence'")
 * before the real problem in `data`; with a condition it checks the one shape that applies.
 */
function withStubConditions(schema: JsonSchema): JsonSchema {
  const defs = (schema.$defs ?? {}) as Record<string, JsonSchema>;
  const deref = (node: JsonSchema): JsonSchema =>
    typeof node.$ref === 'string' ? (defs[node.$ref.replace('#/$defs/', '')] ?? node) : node;
  const visit = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(visit);
    if (typeof node !== 'object' || node === null) return node;
    const out: JsonSchema = Object.fromEntries(Object.entries(node).map(([key, value]) => [key, visit(value)]));
    const options = out.anyOf as JsonSchema[] | undefined;
    if (options?.length !== 2) return out;
    const [a, b] = options.map(deref) as [JsonSchema, JsonSchema];
    const isList = (o: JsonSchema) => o.type === 'array';
    const isSequence = (o: JsonSchema) => Array.isArray(o.required) && o.required.includes('sequence');
    const test =
      isList(a) !== isList(b)
        ? { kind: { type: 'array' }, first: isList(a) }
        : isSequence(a) !== isSequence(b)
          ? { kind: { type: 'object', required: ['sequence'] }, first: isSequence(a) }
          : undefined;
    if (!test) return out;
    const { anyOf: _, ...rest } = out;
    const [then, otherwise] = test.first ? options : [options[1], options[0]];
    return { ...rest, if: test.kind, then, else: otherwise };
  };
  return visit(schema) as JsonSchema;
}

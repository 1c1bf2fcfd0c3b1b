/**
 * The zod schemas of one stub of a scenario file: a response (envelope fields, HTTP status and
 * headers, a fault, recorded latency, or the exact body text) or a sequence of responses, with an
 * optional `when` condition; the data checked against the contract.
 * @module
 */
import { z } from 'zod';
import { contentTypeProblem } from '../contract/content-type.js';
import { FRAMING_HEADERS, HEADER_NAME, HEADER_VALUE, headerProblem } from '../contract/http-wire.js';
import { envelopeSchema } from '../contract/envelope-schema.js';
import { OPERATIONS, type OperationName } from '../contract/operations.js';
import { FAULT_KINDS } from '../faults/fault.js';
import { answerStatusSchema, faultSchema } from '../faults/fault-schema.js';
import { latencySchema } from '../latency/latency-schema.js';
import { OBJECT_DATA_OPERATIONS } from './inherit-data.js';

const queryCondition = z
  .record(z.string(), z.string())
  .describe(
    'Query parameters the request must carry, name → value (the request matches when one of its values for that name is equal).',
  );

const when = z
  .strictObject({ query: queryCondition.optional() })
  .describe('Conditions on the request; a stub without "when" matches every request.');

/** Adds the problem `message` at `path` below the value being checked. */
function problem(ctx: z.core.$RefinementCtx, path: PropertyKey[], message: string): void {
  ctx.addIssue({ code: 'custom', path, message });
}

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
          if (!HEADER_NAME.test(name)) problem(ctx, [name], headerProblem(name, '')!);
          // Both framing headers together make Node clients refuse the answer (issue 34); one alone can lie about the body.
          else if (FRAMING_HEADERS.has(name.toLowerCase()))
            problem(ctx, [name], `"${name}" is not set by a stub: mockvideo frames the body itself; remove it`);
        }
        const contentType = contentTypeProblem(headers);
        if (contentType) problem(ctx, ['content-type'], contentType);
      })
      .optional()
      .describe('Extra response headers: HTTP token names, Latin-1 values; a content-type is JSON (or text/plain).'),
    fault: faultSchema.optional().describe(`What goes wrong with this answer: ${FAULT_KINDS.join(', ')}.`),
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
        problem(ctx, [field], `give either "body" (the exact text) or "${field}", not both`);
    }
  } else if (response.data === undefined && (!response.fault || response.fault.kind === 'delay')) {
    problem(ctx, ['data'], 'data is required (only a fault other than "delay" answers without it)');
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
      problem(ctx, ['body'], `a 2xx body must be JSON: ${(error as Error).message}`);
      return;
    }
    const result = envelopeSchema(data).safeParse(value);
    if (!result.success) for (const issue of result.error.issues) problem(ctx, ['body', ...issue.path], issue.message);
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
  const checked = <T extends z.ZodType<z.infer<z.ZodObject<typeof shape>>>>(schema: T) =>
    schema.superRefine(needsData).superRefine(keepsContract);
  return {
    single: checked(z.strictObject({ ...shape, when: when.optional() })),
    sequence: z.strictObject({
      when: when.optional(),
      sequence: z
        .array(checked(z.strictObject(shape)))
        .min(1)
        .describe('Responses served in order, one per request; the last one repeats.'),
    }),
  };
}

/**
 * The scenario file format: the zod schema of a whole file (its top level, its operations, its
 * fault overlay) and the types of a parsed stub. One stub's schema is in `stub-schema.ts`.
 * @module
 */
import { z } from 'zod';
import { OPERATION_NAMES, type OperationName } from '../contract/operations.js';
import { FAULT_KINDS, type Fault } from '../faults/fault.js';
import { faultSchema } from '../faults/fault-schema.js';
import type { RecordedLatency } from '../latency/latency.js';
import { stubSchemas } from './stub-schema.js';

/**
 * A scenario name: lowercase letters, digits and dashes, starting with a letter or digit. Names
 * double as file names (`scenarios/<name>.json`) and URL segments (`/scenarios/<name>/api/g1/...`).
 */
export const SCENARIO_NAME = /^[a-z0-9][a-z0-9-]{0,63}$/;

function operationSchema(name: OperationName) {
  // The file schema (for editors) takes object data in part: fields left out come from the parent, and
  // `mockvideo validate` checks the whole after merging.
  const { single, sequence } = stubSchemas(name, true);
  const stub = z.union([sequence, single]);
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
export const scenarioFileSchema = z.strictObject({
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
    .describe(`Operation name or "*" → a fault applied on top of the stubs (${FAULT_KINDS.join(', ')}).`),
  state: stateSchema.optional(),
});

/**
 * The top level of a scenario file with `operations` and `faults` left unchecked: the parser checks
 * the top level with this, then each operation with `stubSchemas` and the faults with
 * {@link scenarioFaultsSchema}.
 */
export const scenarioHeaderSchema = scenarioFileSchema.extend({
  operations: z.record(z.string(), z.unknown()),
  faults: z.record(z.string(), z.unknown()).optional(),
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

/** A stub: an optional condition and one response (its fields) or a sequence of responses. */
export interface Stub extends StubResponse {
  when?: { query?: Record<string, string> };
  /** Present for a sequence stub (then no response field is). */
  sequence?: StubResponse[];
}

/**
 * Reading fault plans from the admin API's JSON and from `--fault` flags: validated with
 * `faultSchema`, so this module loads zod (a plain `serve` start does not load it).
 * @module
 */
import { z } from 'zod';
import { MockvideoError } from '../errors.js';
import { OPERATION_NAMES } from '../contract/operation-table.js';
import { MAX_TIMES, type FaultPlan } from './board.js';
import { FAULT_KINDS } from './fault.js';
import { NOT_AN_OBJECT, PLAN_FIELDS, readFaultFlag } from './plan-form.js';
import { faultSchema } from './fault-schema.js';
import { STATE_SCOPES } from '../state/client-state.js';
import { DEVICE_NAME } from '../state/device-scenarios.js';

/** The plan's own fields (besides the fault's), each with what it must be (also compiled into a check without zod: `plan-check.ts`). */
export const planSchema = z.object({
  operation: z.enum(OPERATION_NAMES).optional(),
  device: z.string().regex(DEVICE_NAME).optional(),
  times: z.int().min(1).max(MAX_TIMES).optional(),
  state: z.enum(STATE_SCOPES).optional(),
});

/**
 * Reads a fault plan from its JSON form (admin API): `{"operation"?, "device"?, "kind", "times"?, "state"?, ...fields}`.
 * @throws MockvideoError (`MV_USAGE`) naming the field and the allowed values.
 */
export function parseFaultPlan(value: unknown): FaultPlan {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new MockvideoError('MV_USAGE', NOT_AN_OBJECT);
  }
  const { operation, device, times, state, ...rest } = value as Record<string, unknown>;
  const plan = planSchema.safeParse(value);
  if (!plan.success) {
    const field = plan.error.issues[0]!.path[0] as keyof typeof PLAN_FIELDS;
    throw new MockvideoError(
      'MV_USAGE',
      `"${field}" must be ${PLAN_FIELDS[field]}, got ${JSON.stringify((value as Record<string, unknown>)[field])}.`,
    );
  }
  const fault = faultSchema.safeParse(rest);
  if (!fault.success) {
    const issue = fault.error.issues[0]!;
    const field = issue.path.join('.') || 'kind';
    const hint = field === 'kind' ? ` Kinds: ${FAULT_KINDS.join(', ')}.` : '';
    throw new MockvideoError('MV_USAGE', `Invalid fault: "${field}": ${issue.message}.${hint}`);
  }
  return { ...plan.data, fault: fault.data };
}

/**
 * Reads a `--fault` flag: `[OPERATION=]KIND[:ARG][@DEVICE]`, the short form of the JSON fault
 * {@link parseFaultPlan} reads (same kinds, same defaults). ARG is the delay in ms (`delay:2000`, or a
 * range `delay:200-800`), the HTTP status (`status:503`) or the envelope result (`envelope:0`);
 * without ARG the defaults hold (`FAULT_DEFAULTS`: a 1,000–3,000 ms delay, status 500, result 0).
 * Without an operation (or with `*`), the fault applies to every operation; with `@DEVICE` (an
 * `_sdevid`, everything after the first `@`) to that device only, else to every device. Flag faults
 * last until cleared.
 *
 * @example parseFaultFlag('meta/setting=reset') // { operation: 'meta/setting', fault: { kind: 'reset' } }
 * @example parseFaultFlag('status:503@ab12') // { device: 'ab12', fault: { kind: 'status', status: 503 } }
 * @example parseFaultFlag('status') // { fault: { kind: 'status', status: 500 } }
 * @throws MockvideoError (`MV_USAGE`) naming the flag, the operations and the kinds.
 */
export function parseFaultFlag(flag: string): FaultPlan {
  return readFaultFlag(flag, parseFaultPlan);
}

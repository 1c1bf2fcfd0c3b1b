/**
 * Reading fault plans without zod: the `--fault` grammar (`[OPERATION=]KIND[:ARG][@DEVICE]`) and the
 * admin API's JSON (`{"operation"?, "device"?, "kind", "times"?, "state"?, ...fields}`), checked by
 * the validators that `scripts/compile-fault-check.ts` compiles from `faultSchema` and `planSchema` at build time
 * (`fault-shape.generated.ts`), then the rules JSON Schema cannot state (`FAULT_RULES`). What the
 * MSW handlers' `faults` option reads: `import 'mockvideo'` loads no zod (its import alone costs
 * about 60 ms on Node 24). `plan.ts` reads the same forms with zod for the CLI and the admin API;
 * `plan-check.test.ts` holds both to the same plans and the same refusals.
 * @module
 */
import { BODILESS_STATUSES } from '../contract/http-wire.js';
import type { OperationName } from '../contract/operation-table.js';
import { MockvideoError, errorText } from '../errors.js';
import { STATE_SCOPES, type StateScope } from '../state/client-state.js';
import { FaultBoard, type FaultPlan } from './board.js';
import { FAULT_DEFAULTS, FAULT_KINDS, FAULT_RULES, type Fault } from './fault.js';
import { NOT_AN_OBJECT, PLAN_FIELDS, readFaultFlag } from './plan-form.js';
import { validateFault, validatePlan } from './fault-shape.generated.js';

/** The admin API's JSON form of a fault plan: the fault's fields, and for how many requests and whose. */
export type FaultPlanJson = { operation?: OperationName; device?: string; times?: number; state?: StateScope } & (
  | { kind: 'delay'; ms?: number | [number, number] }
  | { kind: 'status'; status?: number; body?: string }
  | { kind: 'envelope'; result?: number; msg?: string }
  | { kind: 'malformed-json' | 'empty' | 'reset' | 'hang' }
) & { rate?: number; seed?: number };

/**
 * A fault as the MSW handlers take it (`createHandlers({ faults })`): a `--fault` flag
 * (`'meta/setting=status:503'`, `'delay:200-800'`, `'reset'`) or the admin API's JSON, which also
 * says `times` (`{ operation: 'meta/cp', kind: 'reset', times: 1 }`).
 */
export type FaultSpec = string | FaultPlanJson;

interface ShapeError {
  instancePath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
}
type Validator = ((value: unknown) => boolean) & { errors?: ShapeError[] | null };

/** The field (`status`, `ms.0`) and the problem of the compiled validator's first error. */
function shapeProblem(validate: Validator): { field: string; message: string } {
  const error = validate.errors![0]!;
  const path = error.instancePath.split('/').filter(Boolean).join('.');
  if (error.keyword === 'additionalProperties')
    return { field: String(error.params.additionalProperty), message: 'not a field of this kind of fault' };
  if (error.keyword === 'discriminator') return { field: 'kind', message: 'not a fault kind' };
  return { field: path || 'kind', message: error.message ?? 'not valid' };
}

/** The first of the {@link FAULT_RULES} that `fault` (of a valid shape) breaks: its field and message. */
function brokenRule(fault: Record<string, unknown>): { field: string; message: string } | undefined {
  if (fault.kind === 'status' && BODILESS_STATUSES.includes(fault.status as number))
    return { field: 'status', message: FAULT_RULES.bodilessStatus };
  if (fault.kind === 'delay' && Array.isArray(fault.ms) && (fault.ms[0] as number) > (fault.ms[1] as number))
    return { field: 'ms', message: FAULT_RULES.delayRange };
  if (fault.kind === 'envelope' && fault.result === 1) return { field: 'result', message: FAULT_RULES.envelopeResult };
  return undefined;
}

/**
 * Reads a fault plan from the admin API's JSON form, without zod: the same plan `parseFaultPlan`
 * gives (`faultSchema`'s defaults: a 1,000–3,000 ms delay, status 500), or the same refusal.
 * @throws MockvideoError (`MV_USAGE`) naming the field and what it must be.
 */
function checkFaultPlan(value: unknown): FaultPlan {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new MockvideoError('MV_USAGE', NOT_AN_OBJECT);
  const { operation, device, times, state, ...rest } = value as Record<string, unknown>;
  const own = { operation, device, times, state };
  if (!(validatePlan as Validator)(value)) {
    const field = (Object.keys(PLAN_FIELDS) as Array<keyof typeof PLAN_FIELDS>).find(
      (name) => own[name] !== undefined && !(validatePlan as Validator)({ [name]: own[name] }),
    )!;
    throw new MockvideoError(
      'MV_USAGE',
      `"${field}" must be ${PLAN_FIELDS[field]}, got ${JSON.stringify(own[field])}.`,
    );
  }
  const problem = (validateFault as Validator)(rest) ? brokenRule(rest) : shapeProblem(validateFault as Validator);
  if (problem) {
    const hint = problem.field === 'kind' ? ` Kinds: ${FAULT_KINDS.join(', ')}.` : '';
    throw new MockvideoError('MV_USAGE', `Invalid fault: "${problem.field}": ${problem.message}.${hint}`);
  }
  const fault = { ...rest } as Fault;
  if (fault.kind === 'delay') fault.ms ??= [...FAULT_DEFAULTS.delayMs];
  if (fault.kind === 'status') fault.status ??= FAULT_DEFAULTS.status;
  const plan: FaultPlan = { fault };
  if (operation !== undefined) plan.operation = operation as OperationName;
  if (device !== undefined) plan.device = device as string;
  if (times !== undefined) plan.times = times as number;
  if (state !== undefined) plan.state = state as (typeof STATE_SCOPES)[number];
  return plan;
}

/**
 * The server-wide faults of MSW handlers: `faults` itself when it is a board (a server's, shared),
 * else a board of `faults` (see {@link FaultSpec}) in order, with `times` counted per device
 * (`client`, as `mockvideo serve` counts them); `undefined` for none.
 * @throws MockvideoError (`MV_USAGE`) naming the fault (`faults[1]`) and what is wrong with it.
 */
export function faultBoardOf(faults: FaultBoard | readonly FaultSpec[] | undefined): FaultBoard | undefined {
  if (faults instanceof FaultBoard) return faults;
  if (!faults?.length) return undefined;
  const board = new FaultBoard('client');
  faults.forEach((spec, i) => {
    try {
      board.add(typeof spec === 'string' ? readFaultFlag(spec, checkFaultPlan) : checkFaultPlan(spec));
    } catch (error) {
      throw new MockvideoError('MV_USAGE', `faults[${i}]: ${errorText(error)}`);
    }
  });
  return board;
}

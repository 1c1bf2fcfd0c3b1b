/**
 * The two written forms of a fault plan, shared by the zod reader (`plan.ts`: CLI, admin API) and
 * the compiled one (`plan-check.ts`: the MSW handlers): the `--fault` grammar `[OPERATION=]KIND[:ARG][@DEVICE]`
 * as the JSON value the schemas read, and what the errors say. Loads no zod.
 * @module
 */
import { OPERATION_NAMES } from '../contract/operation-table.js';
import { MockvideoError, errorText } from '../errors.js';
import { MAX_TIMES, type FaultPlan } from './board.js';
import { FAULT_KINDS, MAX_DELAY_MS } from './fault.js';
import { DEVICE_NAME_RULE } from '../state/device-scenarios.js';

/** What each of the plan's own fields (besides the fault's) must be, as the error says it. */
export const PLAN_FIELDS = {
  operation: `one of ${OPERATION_NAMES.join(', ')} (or left out for every operation)`,
  device: `${DEVICE_NAME_RULE} (or left out for every device)`,
  times: `an integer from 1 to ${MAX_TIMES}`,
  state: '"client" (times counted per device) or "global" (counted for the whole server)',
} as const;

/** The message of a plan reader for a value that is not a JSON object. */
export const NOT_AN_OBJECT =
  'A fault is a JSON object, e.g. {"operation": "meta/setting", "kind": "reset", "times": 1}.';

/**
 * The JSON value of a `--fault` flag, as the schemas read it: `kind`, `operation` (unless `*` or
 * left out), the kind's ARG (`ms`, `status`, `result`) and `device` (everything after the first
 * `@`); `arg` when a kind that takes none got one.
 */
function faultFlagValue(flag: string): Record<string, unknown> {
  const at = flag.indexOf('@');
  const [, target = '*', kind = '', arg = ''] = /^(?:(.*)=)?([^:]*)(?::(.*))?$/s.exec(
    at < 0 ? flag : flag.slice(0, at),
  )!;
  const value: Record<string, unknown> = { kind };
  if (target !== '*') value.operation = target;
  if (at >= 0) value.device = flag.slice(at + 1);
  if (arg !== '') {
    if (kind === 'delay') {
      const range = /^(\d+)-(\d+)$/.exec(arg);
      value.ms = range ? [Number(range[1]), Number(range[2])] : Number(arg);
    } else if (kind === 'status') value.status = Number(arg);
    else if (kind === 'envelope') value.result = Number(arg);
    else if ((FAULT_KINDS as readonly string[]).includes(kind)) value.arg = arg;
  }
  return value;
}

/** Reads `flag` with `readPlan` (zod's or the compiled check), its errors as `--fault FLAG: <cause> Form: …`. */
export function readFaultFlag(flag: string, readPlan: (value: unknown) => FaultPlan): FaultPlan {
  const value = faultFlagValue(flag);
  try {
    if (value.arg !== undefined)
      throw new MockvideoError(
        'MV_USAGE',
        `"${String(value.kind)}" takes no ARG (only delay, status and envelope do).`,
      );
    return readPlan(value);
  } catch (error) {
    throw new MockvideoError(
      'MV_USAGE',
      `--fault ${flag}: ${errorText(error)} Form: [OPERATION=]KIND[:ARG][@SDEVID], e.g. meta/setting=status:503, delay:200-800 (max ${MAX_DELAY_MS} ms) or reset@<_sdevid>.`,
    );
  }
}

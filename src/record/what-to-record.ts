/**
 * What the recorder records of an exchange it forwarded, as data: a pure decision from the route,
 * the method and the upstream's status.
 * @module
 */
import type { OperationName } from '../contract/core.js';
import type { Route } from '../routes/path.js';

/** What the recorder was told to record (`--only`, `--record-failures`). */
export interface RecordChoice {
  /** Record only these operations (the others are passed through, not recorded). */
  only?: readonly OperationName[] | undefined;
  /** Record 5xx answers too. */
  recordFailures?: boolean | undefined;
}

/**
 * Why an exchange is passed through and not recorded (the log's note), or `undefined` to record it:
 * only GETs of the six operations are recorded, in `only` when given, 5xx only with `recordFailures`.
 * @example whyNotRecorded(routeOf('/api/g1/meta/upgrade'), 'GET', 200, {}) // 'not recorded: not an operation'
 */
export function whyNotRecorded(route: Route, method: string, status: number, choice: RecordChoice): string | undefined {
  if (route.kind !== 'operation') return 'not recorded: not an operation';
  if (method !== 'GET') return 'not recorded: only GET is recorded';
  if (choice.only && !choice.only.includes(route.operation)) return 'not recorded: not in --only';
  if (status >= 500 && !choice.recordFailures) return 'not recorded: upstream failure (use --record-failures)';
  return undefined;
}

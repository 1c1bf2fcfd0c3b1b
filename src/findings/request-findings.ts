import { COMMON_PARAMETERS, OPERATION_TABLE, type OperationName } from '../contract/core.js';
import type { QueryValues } from '../normalise/index.js';

/** One way a client request breaks the contract. `rule` is stable for tools; `message` is for people. */
export interface Finding {
  /** The query parameter concerned, or `''` for the request as a whole. */
  parameter: string;
  rule: FindingRule;
  message: string;
}

/**
 * The rules a request is checked against:
 * - `missing-parameter`: a common parameter, or an operation's extra one, is absent;
 * - `format`: a value does not have the format of the seed's table;
 * - `repeated-parameter`: a parameter occurs more than once (except the two `ref` of operations 5 and 6);
 * - `ref-order`: operations 5 and 6 send `ref` twice, the first empty and before the common one;
 * - `ts-skew`: `_ts` is more than {@link MAX_TS_SKEW_SECONDS} from the server's clock (or in milliseconds);
 * - `body-on-get`: a request body was sent although every operation is a GET without one.
 *
 * @see docs/contract.md#common-query-parameters, docs/contract.md#operations (extra parameters) and docs/contract.md#operations.
 */
type FindingRule = 'missing-parameter' | 'format' | 'repeated-parameter' | 'ref-order' | 'ts-skew' | 'body-on-get';

/** How far `_ts` may be from the server's clock, in seconds (a day). */
const MAX_TS_SKEW_SECONDS = 86_400;

/** What {@link requestFindings} needs to know about a request. */
export interface RequestFacts {
  operation: OperationName;
  /** The query's decoded values by name, in the order sent (see `queryValues`). */
  query: QueryValues;
  /** True when the request carried a body. */
  hasBody?: boolean;
  /** The server's clock, Unix time in **seconds**; default now. */
  nowSeconds?: number;
}

/**
 * Checks one request against the seed's "Common query parameters" and "Operations" tables and
 * returns every finding (empty for a correct request). Pure; never throws.
 *
 * @example requestFindings({ operation: 'meta/cp', query: queryValues('_region=india') })
 */
export function requestFindings(facts: RequestFacts): Finding[] {
  const findings: Finding[] = [];
  const add = (parameter: string, rule: FindingRule, message: string) => findings.push({ parameter, rule, message });
  const values = facts.query;
  const spec = OPERATION_TABLE[facts.operation];
  const refTwice = spec.extraParameters.some((p) => p.emptyBeforeCommon);

  for (const param of COMMON_PARAMETERS) {
    const got = values.get(param.name);
    if (!got) {
      add(
        param.name,
        'missing-parameter',
        `${param.name} is missing (${param.meaning.replace(/\.$/, '')}; ${param.format})`,
      );
      continue;
    }
    if (param.name === 'ref' && refTwice) continue;
    if (got.length > 1)
      add(param.name, 'repeated-parameter', `${param.name} is sent ${got.length} times; it is sent once`);
    const value = got[got.length - 1]!;
    if (!param.pattern.test(value))
      add(
        param.name,
        'format',
        `${param.name} must be ${param.format}, got ${JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value)}`,
      );
  }

  for (const extra of spec.extraParameters) {
    if (extra.emptyBeforeCommon) continue;
    const got = values.get(extra.name);
    if (!got) add(extra.name, 'missing-parameter', `${extra.name} is missing (${extra.format})`);
    else if (!extra.pattern.test(got[0]!))
      add(extra.name, 'format', `${extra.name} must be ${extra.format}, got ${JSON.stringify(got[0])}`);
    else if (got.length > 1)
      add(extra.name, 'repeated-parameter', `${extra.name} is sent ${got.length} times; it is sent once`);
  }

  if (refTwice) {
    const refs = values.get('ref') ?? [];
    if (refs.length !== 2 || refs[0] !== '' || refs[1] === '') {
      add(
        'ref',
        'ref-order',
        `${facts.operation} sends ref twice, first empty, then the calling application; got ${JSON.stringify(refs)}`,
      );
    }
  }

  const ts = values.get('_ts')?.[0];
  if (ts !== undefined && /^\d+$/.test(ts)) {
    const now = facts.nowSeconds ?? Math.floor(Date.now() / 1000);
    const seconds = Number(ts);
    if (ts.length >= 13) add('_ts', 'ts-skew', `_ts is Unix time in seconds; ${ts} looks like milliseconds`);
    else if (Math.abs(seconds - now) > MAX_TS_SKEW_SECONDS)
      add(
        '_ts',
        'ts-skew',
        `_ts ${ts} is ${Math.round(Math.abs(seconds - now) / 3600)} hours from the server's clock (allowed: ${MAX_TS_SKEW_SECONDS / 3600} hours); to serve an old capture, start mockvideo with --clock ${new Date(seconds * 1000).toISOString().replace('.000Z', 'Z')}`,
      );
  }

  if (facts.hasBody) add('', 'body-on-get', 'a request body was sent; every operation is a GET without a body');
  return findings;
}

/**
 * The operations table without the payload schemas: names, paths and extra query parameters. Loads
 * no zod, so `serve` can route and check requests without building a schema; `operations.ts` adds
 * each operation's `dataSchema` ({@link OPERATIONS}) for validation.
 * @module
 */

import type { QueryParameterSpec } from './common-parameters.js';
import { INTEGER_TEXT } from './number-text.js';

/** The path prefix of every operation; `g1` is the interface generation. @see docs/contract.md#versioning. */
export const API_PREFIX = '/api/g1';

/** The `uri` of an upgrade link: `<scheme>://player-plugin/<plugin_id>/<version>`, the version a signed integer. @see docs/contract.md#plugin-entry. */
export const UPGRADE_URI = new RegExp(
  `^([a-zA-Z][a-zA-Z0-9+.-]*)://player-plugin/([^/]+)/(${INTEGER_TEXT.source.slice(1, -1)})$`,
);

/** The names of the six operations, as their paths below {@link API_PREFIX}. @see docs/contract.md#operations. */
export const OPERATION_NAMES = [
  'ad_config',
  'meta/cp',
  'meta/setting',
  'meta/plugin',
  'localplay/diversion',
  'localplay/recomm',
] as const;

/** One of the six operations, named by its path below `/api/g1`, e.g. `meta/setting`. */
export type OperationName = (typeof OPERATION_NAMES)[number];

/** An operation-specific query parameter, beyond the common ones. @see docs/contract.md#operations (extra query parameters). */
export interface ExtraParameter extends Omit<QueryParameterSpec, 'meaning'> {
  /** For `ref`: sent empty, before the common `ref`, so the parameter occurs twice. */
  emptyBeforeCommon?: boolean;
}

/** One row of the seed's operations table, without the schema of `data` (see `OperationSpec` for that). */
export interface OperationInfo {
  /** The seed's row number (1–6). */
  number: number;
  name: OperationName;
  /** The full path, e.g. `/api/g1/meta/setting`. */
  path: string;
  /** The HTTP method; every operation is a GET without body. */
  method: 'GET';
  extraParameters: readonly ExtraParameter[];
  /** The seed's description of `data`. */
  data: string;
}

const refBeforeCommon: ExtraParameter = {
  name: 'ref',
  format: 'string, sent empty before the common ref',
  emptyBeforeCommon: true,
  pattern: /^$/,
};

function operation(
  number: number,
  name: OperationName,
  data: string,
  extraParameters: ExtraParameter[] = [],
): OperationInfo {
  return { number, name, path: `${API_PREFIX}/${name}`, method: 'GET', extraParameters, data };
}

/**
 * The operations table without schemas: for each operation its number, path, extra query parameters
 * and the seed's description of its `data`. All are GET with no request body, answering 200 with the
 * envelope. The same rows as `OPERATIONS`, which adds each `dataSchema`.
 *
 * @see docs/contract.md#operations.
 */
export const OPERATION_TABLE: Readonly<Record<OperationName, OperationInfo>> = {
  ad_config: operation(1, 'ad_config', 'Ad configuration object'),
  'meta/cp': operation(2, 'meta/cp', 'Array of content providers'),
  'meta/setting': operation(3, 'meta/setting', 'Runtime settings object'),
  'meta/plugin': operation(4, 'meta/plugin', 'Array of plugin entries'),
  'localplay/diversion': operation(5, 'localplay/diversion', 'Diversion set', [
    refBeforeCommon,
    { name: 'is_from_gallery', format: 'boolean as text (true or false)', pattern: /^(true|false)$/ },
  ]),
  'localplay/recomm': operation(6, 'localplay/recomm', 'Array of recommended video items', [refBeforeCommon]),
};

/** True when `name` is one of the six operations. */
export function isOperationName(name: string): name is OperationName {
  return Object.prototype.hasOwnProperty.call(OPERATION_TABLE, name);
}

/**
 * The operation a URL of the real service names (a HAR's, an exchange the recorder forwarded), or
 * `undefined`: `/api/g1/<operation>` at the end of the path, below any base path of `{base_url}`
 * (the seed's URLs are `{base_url}/api/g1/…`), one trailing slash ignored. Requests to mockvideo's
 * own surface are routed by `routeOf` (`src/normalise/path.ts`), not by this.
 *
 * @example operationOfPath('/scenarios/gallery/api/g1/meta/cp') // 'meta/cp'
 */
export function operationOfPath(pathname: string): OperationName | undefined {
  const at = pathname.lastIndexOf(`${API_PREFIX}/`);
  if (at < 0) return undefined;
  const name = pathname.slice(at + API_PREFIX.length + 1).replace(/\/$/, '');
  return isOperationName(name) ? name : undefined;
}

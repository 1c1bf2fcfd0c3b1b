import type { z } from 'zod';
import { adConfigSchema } from './ad-config.js';
import { contentProvidersSchema } from './content-provider.js';
import { diversionSetSchema } from './diversion.js';
import { OPERATION_TABLE, type OperationInfo, type OperationName } from './operation-table.js';
import { pluginEntriesSchema } from './plugin.js';
import { recommendationsSchema } from './recommended-video.js';
import { settingsSchema } from './settings.js';

export * from './operation-table.js';

/** One row of the seed's operations table, with the runtime schema of its `data`. */
export interface OperationSpec extends OperationInfo {
  /** The runtime schema of `data`. */
  dataSchema: z.ZodType;
}

const DATA_SCHEMAS: Readonly<Record<OperationName, z.ZodType>> = {
  ad_config: adConfigSchema,
  'meta/cp': contentProvidersSchema,
  'meta/setting': settingsSchema,
  'meta/plugin': pluginEntriesSchema,
  'localplay/diversion': diversionSetSchema,
  'localplay/recomm': recommendationsSchema,
};

/**
 * The operations table: for each operation its number, path, extra query parameters and the schema
 * of its `data`. All are GET with no request body, answering 200 with the envelope. Loads zod and
 * builds every payload schema: code that only routes or checks queries uses {@link OPERATION_TABLE}.
 *
 * @see docs/contract.md#operations.
 */
export const OPERATIONS: Readonly<Record<OperationName, OperationSpec>> = Object.fromEntries(
  Object.values(OPERATION_TABLE).map((info) => [info.name, { ...info, dataSchema: DATA_SCHEMAS[info.name] }]),
) as unknown as Record<OperationName, OperationSpec>;

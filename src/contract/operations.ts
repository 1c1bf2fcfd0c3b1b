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

/**
 * The operations table: for each operation its number, path, extra query parameters and the schema
 * of its `data`. All are GET with no request body, answering 200 with the envelope. Loads zod and
 * builds every payload schema: code that only routes or checks queries uses {@link OPERATION_TABLE}.
 *
 * @see docs/contract.md#operations.
 */
export const OPERATIONS: Readonly<Record<OperationName, OperationSpec>> = {
  ad_config: { ...OPERATION_TABLE.ad_config, dataSchema: adConfigSchema },
  'meta/cp': { ...OPERATION_TABLE['meta/cp'], dataSchema: contentProvidersSchema },
  'meta/setting': { ...OPERATION_TABLE['meta/setting'], dataSchema: settingsSchema },
  'meta/plugin': { ...OPERATION_TABLE['meta/plugin'], dataSchema: pluginEntriesSchema },
  'localplay/diversion': { ...OPERATION_TABLE['localplay/diversion'], dataSchema: diversionSetSchema },
  'localplay/recomm': { ...OPERATION_TABLE['localplay/recomm'], dataSchema: recommendationsSchema },
};

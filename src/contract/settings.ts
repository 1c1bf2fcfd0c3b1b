import { z } from 'zod';
import { NUMBER_TEXT } from './number-text.js';

/**
 * The integer-valued runtime settings, in the seed's table order.
 * @see docs/contract.md#runtime-settings.
 */
export const INTEGER_SETTINGS = [
  'language_switch',
  'recommend_exit_times',
  'recommend_exit_times_gallery',
  'recommend_exit_times_no_click',
  'recommend_exit_times_no_click_gallery',
  'recommend_page_control_show_times',
  'recommend_page_control_show_times_for_gallery',
  'recommend_page_max_show_times_without_click',
  'recommend_page_max_show_times_without_click_for_gallery',
  'recommend_show_times_interval',
  'recommend_suspend_times',
  'recommend_suspend_times_gallery',
  'recommend_suspend_times_no_click',
  'recommend_suspend_times_no_click_gallery',
] as const;

const integerFields = Object.fromEntries(INTEGER_SETTINGS.map((name) => [name, z.number().int()])) as {
  [K in (typeof INTEGER_SETTINGS)[number]]: z.ZodNumber;
};

/**
 * The `data` of `meta/setting`: a flat object. `codec_level` is a string holding a number;
 * `disable_codec_name` is a string where `none` means no codec is disabled; all other fields are
 * integers (meaning, unit and defaults are not shown in the seed).
 *
 * @see docs/contract.md#runtime-settings.
 */
export const settingsSchema = z.strictObject({
  /** A number written as a string, e.g. `"3"`; meaning **unknown**. */
  codec_level: z.string().regex(NUMBER_TEXT, 'codec_level must be a string holding a number, e.g. "3" or "-1.5"'),
  /** Name of the codec to disable; `none` disables none. */
  disable_codec_name: z.string(),
  ...integerFields,
});

/** The runtime settings object. @see docs/contract.md#runtime-settings. */
export type Settings = z.infer<typeof settingsSchema>;

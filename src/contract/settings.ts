import { z } from 'zod';
import { integerSchema } from './integer.js';
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

/**
 * The `data` of `meta/setting`: a flat object; the type {@link settingsSchema} infers
 * (the build checks that they are the same). The meaning, unit and default of each
 * setting are not shown in the seed.
 *
 * @see docs/contract.md#runtime-settings (seed: "Runtime settings").
 */
export interface Settings {
  /** A number written as a string, e.g. `"3"` or `"-1.5"`; meaning **unknown**. */
  codec_level: string;
  /** Name of the codec to disable; the text `none` disables none. */
  disable_codec_name: string;
  /** An integer; its meaning, unit and default are not shown in the seed. */
  language_switch: number;
  /** An integer; its meaning, unit and default are not shown in the seed. */
  recommend_exit_times: number;
  /** An integer; its meaning, unit and default are not shown in the seed. */
  recommend_exit_times_gallery: number;
  /** An integer; its meaning, unit and default are not shown in the seed. */
  recommend_exit_times_no_click: number;
  /** An integer; its meaning, unit and default are not shown in the seed. */
  recommend_exit_times_no_click_gallery: number;
  /** An integer; its meaning, unit and default are not shown in the seed. */
  recommend_page_control_show_times: number;
  /** An integer; its meaning, unit and default are not shown in the seed. */
  recommend_page_control_show_times_for_gallery: number;
  /** An integer; its meaning, unit and default are not shown in the seed. */
  recommend_page_max_show_times_without_click: number;
  /** An integer; its meaning, unit and default are not shown in the seed. */
  recommend_page_max_show_times_without_click_for_gallery: number;
  /** An integer; its meaning, unit and default are not shown in the seed. */
  recommend_show_times_interval: number;
  /** An integer; its meaning, unit and default are not shown in the seed. */
  recommend_suspend_times: number;
  /** An integer; its meaning, unit and default are not shown in the seed. */
  recommend_suspend_times_gallery: number;
  /** An integer; its meaning, unit and default are not shown in the seed. */
  recommend_suspend_times_no_click: number;
  /** An integer; its meaning, unit and default are not shown in the seed. */
  recommend_suspend_times_no_click_gallery: number;
}

const integerFields = Object.fromEntries(INTEGER_SETTINGS.map((name) => [name, integerSchema()])) as {
  [K in (typeof INTEGER_SETTINGS)[number]]: ReturnType<typeof integerSchema>;
};

/** The schema of {@link Settings} (its fields' docstrings say what each holds). @see docs/contract.md#runtime-settings. */
export const settingsSchema = z.strictObject({
  codec_level: z.string().regex(NUMBER_TEXT, 'codec_level must be a string holding a number, e.g. "3" or "-1.5"'),
  disable_codec_name: z.string(),
  ...integerFields,
});

import type { VerifyRule } from './verify.js';

/**
 * What `--fail-on` may count (`verify`, `serve --junit`): `start-ups`, the rules about start-ups and
 * the order of calls; `findings`, contract findings (`requests-keep-the-contract`); `unanswered`,
 * requests no scenario or recording answered (`requests-answered`). Every one by default.
 */
export const FAIL_ON = ['start-ups', 'findings', 'unanswered'] as const;

/** One of {@link FAIL_ON}. */
export type FailOn = (typeof FAIL_ON)[number];

/** Which `--fail-on` value counts each rule. */
export const RULE_COUNTS: Readonly<Record<VerifyRule, FailOn>> = {
  'start-up-seen': 'start-ups',
  'start-up-calls-each-operation-once': 'start-ups',
  'diversion-carries-is_from_gallery': 'start-ups',
  'recommendations-after-start-up': 'start-ups',
  'requests-keep-the-contract': 'findings',
  'requests-answered': 'unanswered',
};

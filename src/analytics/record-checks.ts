import { parseDeepLink } from '../contract/core.js';

/**
 * The fields every analytics record carries. @see docs/contract.md#analytics-records: "Its common fields are `_device`,
 * `_res`, `_anoyid`, … `_plyver`".
 */
const ANALYTICS_COMMON_FIELDS = [
  '_device',
  '_res',
  '_anoyid',
  '_nettype',
  '_oemui',
  '_ts',
  '_locale',
  '_ver',
  '_model',
  '_andver',
  '_appver',
  '_region',
  '_oemuiver',
  '_language',
  'ref',
  '_isoemui',
  '_plyver',
] as const;

/** The record kinds, named by `type`, and their extra fields. @see docs/contract.md#analytics-records (table "type | Extra fields"). */
const ANALYTICS_RECORD_KINDS: Readonly<Record<string, readonly string[]>> = {
  login_state_on_launch: ['result'],
  page_view: ['page_name', 'package_from'],
  click: ['target', 'at'],
  play__start_succ: ['at', 'video_type', 'duration', 'played_all'],
  play__completelast: ['at', 'video_type', 'duration', 'played_all'],
};

/** The fields of the later client version's records, besides the common ones. @see docs/contract.md#analytics-records: "A later client version …". */
const ANALYTICS_EVENT_FIELDS = ['event', 'module', 'append', 'st', '_page'] as const;

/**
 * One problem of a record: the field (`''` for the record; a name over {@link MAX_SHOWN} characters
 * is cut, ending in `…`), a stable rule name (`more`: findings past {@link MAX_FINDINGS_PER_RECORD},
 * counted, not listed), and a sentence.
 */
export interface AnalyticsFinding {
  field: string;
  rule:
    | 'object'
    | 'string'
    | 'required'
    | 'kind'
    | 'known-type'
    | 'deep-link'
    | 'milliseconds'
    | 'seconds'
    | 'json-text'
    | 'more';
  message: string;
}

/**
 * The most findings listed for one record; the rest are counted in a last `more` finding. A record
 * with every common field missing has 18, so all of a real record's findings are listed, and the
 * sink's answer and store stay bounded (issue 39: 30 KB of records answered 19.5 MB of findings).
 */
const MAX_FINDINGS_PER_RECORD = 24;

/** The most characters of a field name or value a finding quotes; a longer one is cut, ending in `…`. */
const MAX_SHOWN = 80;

/** `text` cut to {@link MAX_SHOWN} characters (`…` marks the cut). */
function shown(text: string): string {
  return text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN)}…` : text;
}

/**
 * What is wrong with one analytics record (empty when nothing is). Rules, from the seed's "Events":
 * a record is a flat map of string fields (`object`, `string`); it has every common field
 * (`required`); it is either of the `type` shape, with a known `type` (`known-type`) and that kind's
 * extra fields, or of the later `event` shape with `event`, `module`, `append`, `st`, `_page`
 * (`kind` when it is neither). Values: `target` a deep link (`deep-link`); `at` Unix time in
 * milliseconds (`milliseconds`); `duration` whole seconds (`seconds`); `append` a JSON text (`json-text`).
 * At most {@link MAX_FINDINGS_PER_RECORD} are listed, then one `more` finding counts the rest; names
 * and values are quoted up to 80 characters.
 *
 * @example checkAnalyticsRecord({ type: 'click' }) // [{ field: '_device', rule: 'required', … }, …]
 * @see docs/contract.md#analytics-records.
 */
export function checkAnalyticsRecord(record: unknown): AnalyticsFinding[] {
  if (record === null || typeof record !== 'object' || Array.isArray(record)) {
    return [{ field: '', rule: 'object', message: 'a record must be a JSON object (a flat map of string fields)' }];
  }
  const fields = record as Record<string, unknown>;
  const findings: AnalyticsFinding[] = [];
  let unlisted = 0;
  const report = (field: string, rule: AnalyticsFinding['rule'], message: string) => {
    if (findings.length < MAX_FINDINGS_PER_RECORD) findings.push({ field: shown(field), rule, message });
    else unlisted++;
  };
  for (const [field, value] of Object.entries(fields)) {
    if (typeof value !== 'string')
      report(
        field,
        'string',
        `${shown(field)} must be a string (records are flat maps of string fields), got ${shown(JSON.stringify(value) ?? String(value))}`,
      );
  }
  const text = (field: string) => (typeof fields[field] === 'string' ? (fields[field] as string) : undefined);
  const require = (names: readonly string[], why: string) => {
    for (const name of names) if (!(name in fields)) report(name, 'required', `${name} is missing (${why})`);
  };
  require(ANALYTICS_COMMON_FIELDS, 'a common field of every record');
  if ('type' in fields) {
    const type = text('type') ?? '';
    const extra = ANALYTICS_RECORD_KINDS[type];
    if (!extra)
      report(
        'type',
        'known-type',
        `type "${shown(type)}" is not a known record kind; known: ${Object.keys(ANALYTICS_RECORD_KINDS).join(', ')}`,
      );
    else require(extra, `an extra field of type ${type}`);
  } else if ('event' in fields) {
    require(ANALYTICS_EVENT_FIELDS, 'a field of the event/module/append shape');
  } else {
    report(
      'type',
      'kind',
      `a record needs "type" (${Object.keys(ANALYTICS_RECORD_KINDS).join(', ')}) or, in the later shape, "event" with "module" and "append"`,
    );
  }
  const target = text('target');
  if (target !== undefined && !parseDeepLink(target))
    report('target', 'deep-link', `target must be a deep link <scheme>://<target>?<query>, got "${shown(target)}"`);
  const at = text('at');
  if (at !== undefined && !/^\d{12,14}$/.test(at))
    report('at', 'milliseconds', `at must be Unix time in milliseconds (13 digits), got "${shown(at)}"`);
  const duration = text('duration');
  if (duration !== undefined && !/^\d+$/.test(duration))
    report('duration', 'seconds', `duration must be whole seconds, got "${shown(duration)}"`);
  const append = text('append');
  if (append !== undefined) {
    try {
      JSON.parse(append);
    } catch {
      report('append', 'json-text', `append must be a JSON text (e.g. {"result":"success"}), got "${shown(append)}"`);
    }
  }
  if (unlisted > 0)
    findings.push({
      field: '',
      rule: 'more',
      message: `${unlisted} more finding${unlisted === 1 ? '' : 's'} not listed (at most ${MAX_FINDINGS_PER_RECORD} per record)`,
    });
  return findings;
}

/**
 * Analytics records as the contract describes them (docs/contract.md#analytics-records), written
 * out here rather than read from `src/analytics/`, so a field dropped there fails the tests.
 */

/** The common fields of every record, in the contract's order. */
export const COMMON_FIELDS = [
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

/** The common fields with a value each (`_ts` in seconds, the rest `value`). */
export function commonFields(value: string): Record<string, string> {
  return Object.fromEntries(COMMON_FIELDS.map((f) => [f, f === '_ts' ? '1795322072' : value]));
}

/** The extra fields of each `type` (the contract's table "`type` | More fields"), with valid values. */
export const KIND_FIELDS: Readonly<Record<string, Record<string, string>>> = {
  login_state_on_launch: { result: 'success' },
  page_view: { page_name: 'player', package_from: 'com.example.gallery' },
  click: { target: 'videoplayer://com.example.streamly?action=playVideo', at: '1795322072123' },
  play__start_succ: { at: '1795322072123', video_type: 'local', duration: '120', played_all: 'false' },
  play__completelast: { at: '1795322072123', video_type: 'local', duration: '120', played_all: 'true' },
};

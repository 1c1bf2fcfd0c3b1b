/**
 * Compares the recorded answers of one request with the live service's answers to it: structure,
 * envelope, contract and status, never values; what differs between the live answers themselves is
 * noise. Loads the contract's zod schemas.
 * @module
 */
import { OPERATIONS, envelopeSchema, type OperationName } from '../contract/index.js';
import { formatJsonPath } from '../errors.js';
import { isVolatile, volatilePaths } from './noise.js';
import { compareShapes, isWithin, shapeOf, type Shape } from './shape.js';

/** One answer: its HTTP status and body text (`undefined` when the body is not text). */
export interface DriftAnswer {
  status: number;
  body: string | undefined;
}

/**
 * The kinds of drift: a field `added` or `removed`, a `type` changed, the `envelope` changed (its
 * `result` or `msg`, a top-level field, or the body is no longer JSON), a `contract` violation the
 * recording did not have, a `status` change; and `noise`, what differed between two live answers.
 */
type DriftKind = 'added' | 'removed' | 'type' | 'envelope' | 'contract' | 'status' | 'noise';

/** One row of a drift table: where, what the recording has, what the live service sent, and the kind. */
export interface DriftRow {
  path: string;
  recorded: string;
  live: string;
  kind: DriftKind;
}

/** The outcome of one comparison: the differences (noise left out) and the noise. */
export interface Comparison {
  differences: DriftRow[];
  noise: DriftRow[];
}

/** A body parsed as JSON, or `undefined` when it is not JSON text. */
function parsed(answer: DriftAnswer): { value: unknown } | undefined {
  if (answer.body === undefined) return undefined;
  try {
    return { value: JSON.parse(answer.body) };
  } catch {
    return undefined;
  }
}

/** `data[3].id` → `data[].id`: a contract issue's place, whatever the item. */
const generalPath = (path: string) => path.replace(/\[\d+\]/g, '[]');

/** The contract violations of a 2xx JSON answer by `path: rule` (values left out of the key); none for other statuses: the seed shows no failure body. */
function violations(
  operation: OperationName,
  status: number,
  value: unknown,
): Map<string, { path: string; rule: string }> {
  const out = new Map<string, { path: string; rule: string }>();
  if (status < 200 || status > 299) return out;
  const result = envelopeSchema(OPERATIONS[operation].dataSchema).safeParse(value);
  if (!result.success) {
    for (const issue of result.error.issues) {
      const path = generalPath(formatJsonPath(issue.path)) || '(body)';
      // Keyed by the rule without the values it quotes: the same break with other values is not new.
      out.set(`${path}: ${issue.message.replace(/"[^"]*"|\d+/g, '…')}`, { path, rule: issue.message });
    }
  }
  return out;
}

/** Top-level field of the envelope, or the body itself. */
const isEnvelopePath = (path: string) => path === '(body)' || !/[.[]/.test(path);

/** Shortens a value's JSON text for a table cell. */
function cell(text: string, width = 48): string {
  return text.length > width ? `${text.slice(0, width - 1)}…` : text;
}

/**
 * Compares `recorded` answers (one or more recorded for the same request) with `live` answers (the
 * live service asked once or, to learn noise, twice). Values never count; see {@link DriftKind} for
 * what does. A structural difference in a place whose structure also varies between the live answers
 * is noise, as is an envelope value or status that varies between them.
 *
 * @example compareAnswers('meta/cp', [{ status: 200, body: recordedText }], [live1, live2]).differences
 * @see docs/contract.md#envelope and each operation's resource section there (the contract checks).
 */
export function compareAnswers(
  operation: OperationName,
  recorded: readonly DriftAnswer[],
  live: readonly DriftAnswer[],
): Comparison {
  const rows: DriftRow[] = [];
  const noise: DriftRow[] = [];
  /** Lists a row as a difference, or as noise when what it shows varies between the live answers. */
  const add = (row: DriftRow, varies: boolean) => (varies ? noise.push({ ...row, kind: 'noise' }) : rows.push(row));
  const recordedJson = recorded.map(parsed);
  const liveJson = live.map(parsed);
  const liveValues = liveJson.filter((p) => p !== undefined).map((p) => p.value);
  const learned =
    liveJson.length >= 2 && liveJson[0] && liveJson[1] ? volatilePaths(liveJson[0].value, liveJson[1].value) : [];
  for (const n of learned)
    noise.push({
      path: n.path,
      recorded: '',
      live: `${cell(n.values[0], 30)} / ${cell(n.values[1], 30)}`,
      kind: 'noise',
    });

  const recordedStatuses = new Set(recorded.map((a) => a.status));
  const liveStatuses = new Set(live.map((a) => a.status));
  if ([...liveStatuses].some((s) => !recordedStatuses.has(s))) {
    const row = { path: '(status)', recorded: [...recordedStatuses].join('|'), live: [...liveStatuses].join('|') };
    add({ ...row, kind: 'status' }, liveStatuses.size > 1);
  }

  if (recordedJson.some((p) => p !== undefined) && liveJson.some((p) => p === undefined)) {
    rows.push({ path: '(body)', recorded: 'JSON', live: 'not JSON', kind: 'envelope' });
  }
  const recordedValues = recordedJson.filter((p) => p !== undefined).map((p) => p.value);
  if (recordedValues.length && liveValues.length) {
    const union = (values: unknown[]) =>
      values.reduce<Shape | undefined>((shape, value) => shapeOf(value, shape), undefined)!;
    // Under another status the body is another kind of answer: its fields are not listed one by one.
    const statusChanged = rows.some((r) => r.kind === 'status');
    for (const difference of compareShapes(union(recordedValues), union(liveValues))) {
      if (statusChanged && !isEnvelopePath(difference.path)) continue;
      const kind = isEnvelopePath(difference.path) ? 'envelope' : difference.kind;
      add({ ...difference, kind }, isVolatile(difference.path, learned));
    }
    for (const field of ['result', 'msg']) {
      const valuesOf = (values: unknown[]) =>
        new Set(
          values
            .filter((v) => v !== null && typeof v === 'object' && !Array.isArray(v) && field in v)
            .map((v) => JSON.stringify((v as Record<string, unknown>)[field])),
        );
      const before = valuesOf(recordedValues);
      const now = valuesOf(liveValues);
      if (!before.size || !now.size || [...now].every((v) => before.has(v))) continue;
      const row = { path: field, recorded: cell([...before].join(' | ')), live: cell([...now].join(' | ')) };
      add({ ...row, kind: 'envelope' }, now.size > 1);
    }
    const known = new Set<string>();
    recordedJson.forEach(
      (p, i) => p && violations(operation, recorded[i]!.status, p.value).forEach((_v, key) => known.add(key)),
    );
    const fresh = new Map<string, { path: string; rule: string }>();
    liveJson.forEach(
      (p, i) =>
        p && violations(operation, live[i]!.status, p.value).forEach((v, key) => !known.has(key) && fresh.set(key, v)),
    );
    // A violation at or around a place already reported (a field whose type changed breaks its schema too) is not listed again.
    const structural = [...rows, ...noise].filter((r) => r.path !== '(status)').map((r) => r.path);
    const related = (a: string, b: string) => isWithin(a, b) || isWithin(b, a) || a === '(body)';
    for (const { path, rule } of fresh.values()) {
      if (!structural.some((p) => related(path, p)))
        rows.push({ path, recorded: 'keeps the contract', live: cell(rule, 60), kind: 'contract' });
    }
  }
  return { differences: dedupe(rows), noise: dedupe(noise) };
}

/** The rows without a repeated kind and path (the first kept). */
const dedupe = (rows: DriftRow[]) =>
  rows.filter((row, i) => rows.findIndex((r) => r.kind === row.kind && r.path === row.path) === i);

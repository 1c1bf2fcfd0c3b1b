/**
 * Noise, learned rather than configured: the live service is asked twice, and whatever differs
 * between its two answers (a timestamp, a nonce, a rank, a field it sends only sometimes) is
 * volatile. Pure, any runtime.
 * @module
 */
import { compareShapes, fieldPath, isWithin, shapeOf } from './shape.js';

/** One volatile place: its path (`[]` for any item) and an example value from each live answer. */
export interface NoisePath {
  path: string;
  /** The first differing value seen there in each of the two answers, as JSON text (`—` when absent); the types for a structural one. */
  values: [string, string];
  /** True when the two answers differ in structure here (a field sent only sometimes, a type that varies), not only in value. */
  structural: boolean;
}

/** Every leaf value of a JSON value by indexed path (`data[2].title`), and the `[]` path it collapses to. */
function leaves(
  value: unknown,
  path: string,
  out: Map<string, { general: string; text: string }>,
  general: string,
): void {
  if (Array.isArray(value)) {
    value.forEach((item, i) => leaves(item, `${path}[${i}]`, out, `${general}[]`));
    if (value.length === 0) out.set(path, { general, text: '[]' });
  } else if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value);
    for (const [key, child] of entries) leaves(child, fieldPath(path, key), out, fieldPath(general, key));
    if (entries.length === 0) out.set(path, { general, text: '{}' });
  } else out.set(path, { general: general || '(body)', text: JSON.stringify(value) });
}

/**
 * The volatile paths between two answers of the same request: every place whose value differs (items
 * compared by position, then reported under the `[]` path), and every structural difference between
 * them. Sorted by path.
 *
 * @example volatilePaths({ updated_at: 1 }, { updated_at: 2 }) // [{ path: 'updated_at', values: ['1', '2'] }]
 */
export function volatilePaths(first: unknown, second: unknown): NoisePath[] {
  const a = new Map<string, { general: string; text: string }>();
  const b = new Map<string, { general: string; text: string }>();
  leaves(first, '', a, '');
  leaves(second, '', b, '');
  const found = new Map<string, NoisePath>();
  for (const key of new Set([...a.keys(), ...b.keys()])) {
    const x = a.get(key);
    const y = b.get(key);
    if (x?.text === y?.text) continue;
    const general = (x ?? y)!.general;
    if (!found.has(general))
      found.set(general, { path: general, values: [x?.text ?? '—', y?.text ?? '—'], structural: false });
  }
  const structural = [
    ...compareShapes(shapeOf(first), shapeOf(second)),
    ...compareShapes(shapeOf(second), shapeOf(first)).map((d) => ({ ...d, recorded: d.live, live: d.recorded })),
  ];
  for (const difference of structural) {
    found.set(difference.path, {
      path: difference.path,
      values: [difference.recorded, difference.live],
      structural: true,
    });
  }
  return [...found.values()].sort((x, y) => x.path.localeCompare(y.path));
}

/**
 * True when `path` is, or lies inside, a place whose *structure* varies between the two live answers
 * (`data[].x.y` inside `data[].x`): a structural difference there is noise. A place whose value only
 * varies keeps its structure checked (a varying `updated_at` that turns from number to string is drift).
 */
export function isVolatile(path: string, noise: readonly NoisePath[]): boolean {
  return noise.some((n) => n.structural && isWithin(path, n.path));
}

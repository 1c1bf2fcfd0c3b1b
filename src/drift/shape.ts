/**
 * The structure of JSON answers, without their values: which fields exist, the JSON type of each
 * (`null` apart, a number apart from a string that holds one), and the union shape of an array's
 * items. Two answers of one operation differ in structure, not in values, when the service changed
 * what it sends: the comparison drift is built on. Pure, any runtime.
 * @module
 */

/** A JSON type as drift tells them apart: `null` is its own type, and `"12"` is a string, not a number. */
type JsonType = 'null' | 'boolean' | 'number' | 'string' | 'object' | 'array';

/**
 * The shape of one or more JSON values at one place: the types seen, and, for objects, the union of
 * their fields; for arrays, the union shape of all their items (items are not compared by index).
 */
export interface Shape {
  types: Set<JsonType>;
  /** Union of the fields of every object seen here (a field seen in any of them). */
  fields: Map<string, Shape>;
  /** Union shape of every item of every array seen here; `undefined` while only empty arrays were seen. */
  items?: Shape;
}

/** One structural difference between a recorded and a live shape. */
export interface ShapeDifference {
  /** Where, as a JSON path with `[]` for "any item": `data[].apk_url`. */
  path: string;
  /** The recorded types (`string`, `number|null`), `—` for a field the recording lacks. */
  recorded: string;
  /** The live types, `—` for a field the live answer lacks. */
  live: string;
  kind: 'added' | 'removed' | 'type';
}

/** A shape that has seen nothing yet. */
function emptyShape(): Shape {
  return { types: new Set(), fields: new Map() };
}

/** The JSON type of a parsed JSON value. */
function typeOf(value: unknown): JsonType {
  return value === null ? 'null' : Array.isArray(value) ? 'array' : (typeof value as JsonType);
}

/**
 * Adds `value` to `shape` (or to a new shape) and returns it: a union over every value added.
 * @example shapeOf([{ a: 1 }, { b: 'x' }]).items!.fields // Map { 'a' => …number, 'b' => …string }
 */
export function shapeOf(value: unknown, shape: Shape = emptyShape()): Shape {
  const type = typeOf(value);
  shape.types.add(type);
  if (type === 'object') {
    for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
      let field = shape.fields.get(key);
      if (!field) shape.fields.set(key, (field = emptyShape()));
      shapeOf(child, field);
    }
  } else if (type === 'array') {
    for (const item of value as unknown[]) shape.items = shapeOf(item, shape.items);
  }
  return shape;
}

/** The types of a shape as one label, sorted: `number|null`; `—` when nothing was seen. */
function typeLabel(shape: Shape | undefined): string {
  if (!shape || shape.types.size === 0) return '—';
  return [...shape.types].sort().join('|');
}

/** The path of a field below `path` (`data` + `cp_id` → `data.cp_id`; odd names quoted). */
export function fieldPath(path: string, key: string): string {
  const name = /^[A-Za-z_$][\w$-]*$/.test(key) ? key : JSON.stringify(key);
  return path ? `${path}.${name}` : name;
}

/** True when `path` is `place` or lies inside it (`data[].x.y` inside `data[].x`). */
export const isWithin = (path: string, place: string) =>
  path === place || path.startsWith(`${place}.`) || path.startsWith(`${place}[`);

/**
 * The structural differences from `recorded` to `live`:
 * - `added` / `removed`: a field present on one side only (in any object seen at that place; the
 *   children of an added or removed field are not listed again);
 * - `type`: the live answer has a type the recording never had there, or the two share no type
 *   (`number` → `string`, `object` → `null`). A type the live answer merely did not show this time
 *   (`string|null` recorded, `string` live) is no difference.
 * Array items are compared by their union shape; when either side saw only empty arrays, there is
 * nothing to compare them by.
 *
 * @example compareShapes(shapeOf({ a: 1 }), shapeOf({ a: '1', b: true })) // a: type, b: added
 */
export function compareShapes(recorded: Shape, live: Shape, path = ''): ShapeDifference[] {
  const out: ShapeDifference[] = [];
  const shared = [...live.types].filter((t) => recorded.types.has(t));
  const newType = [...live.types].some((t) => !recorded.types.has(t));
  if (recorded.types.size && live.types.size && (newType || shared.length === 0)) {
    out.push({ path: path || '(body)', recorded: typeLabel(recorded), live: typeLabel(live), kind: 'type' });
  }
  if (recorded.types.has('object') && live.types.has('object')) {
    for (const [key, field] of recorded.fields) {
      const other = live.fields.get(key);
      if (!other) out.push({ path: fieldPath(path, key), recorded: typeLabel(field), live: '—', kind: 'removed' });
      else out.push(...compareShapes(field, other, fieldPath(path, key)));
    }
    for (const [key, field] of live.fields) {
      if (!recorded.fields.has(key))
        out.push({ path: fieldPath(path, key), recorded: '—', live: typeLabel(field), kind: 'added' });
    }
  }
  if (recorded.items && live.items) out.push(...compareShapes(recorded.items, live.items, `${path}[]`));
  return out;
}

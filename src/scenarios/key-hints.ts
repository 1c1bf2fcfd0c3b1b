/**
 * "Did you mean" for a misspelled field of a scenario file: the keys the schema takes where zod
 * found an unrecognised one, and the closest of them.
 * @module
 */
import type { z } from 'zod';
import { didYouMean } from '../errors.js';

/** A zod schema's definition, as far as walking down to a path needs it (zod 4's `_zod.def`). */
interface Def {
  type: string;
  shape?: Record<string, z.core.$ZodType>;
  innerType?: z.core.$ZodType;
  element?: z.core.$ZodType;
  options?: readonly z.core.$ZodType[];
  left?: z.core.$ZodType;
  right?: z.core.$ZodType;
  in?: z.core.$ZodType;
  valueType?: z.core.$ZodType;
  items?: readonly z.core.$ZodType[];
  getter?: () => z.core.$ZodType;
}

const defOf = (schema: z.core.$ZodType): Def => schema._zod.def as unknown as Def;

/** The object schemas `schema` may be at its top: through optional, default, pipe, lazy, union and intersection. */
function objectsOf(schema: z.core.$ZodType, depth = 0): Def[] {
  const def = defOf(schema);
  if (depth > 20) return [];
  if (def.type === 'object') return [def];
  const inner = [def.innerType, def.in, def.left, def.right, def.getter?.(), ...(def.options ?? [])].filter(
    (s): s is z.core.$ZodType => s !== undefined,
  );
  return inner.flatMap((s) => objectsOf(s, depth + 1));
}

/** The schemas one step down `key` from `schema` (an object's field, an array's element, a record's value). */
function childrenOf(schema: z.core.$ZodType, key: PropertyKey, depth = 0): z.core.$ZodType[] {
  const def = defOf(schema);
  if (depth > 20) return [];
  if (def.type === 'object') return def.shape?.[String(key)] ? [def.shape[String(key)]!] : [];
  if (def.type === 'array' && def.element) return [def.element];
  if (def.type === 'tuple' && typeof key === 'number' && def.items?.[key]) return [def.items[key]];
  if (def.type === 'record' && def.valueType) return [def.valueType];
  const inner = [def.innerType, def.in, def.left, def.right, def.getter?.(), ...(def.options ?? [])].filter(
    (s): s is z.core.$ZodType => s !== undefined,
  );
  return inner.flatMap((s) => childrenOf(s, key, depth + 1));
}

/** The keys the object schemas at `path` below `schema` take (several for a union). */
function keysAt(schema: z.core.$ZodType, path: readonly PropertyKey[]): string[] {
  let schemas = [schema];
  for (const key of path) schemas = schemas.flatMap((s) => childrenOf(s, key));
  return [...new Set(schemas.flatMap((s) => objectsOf(s)).flatMap((def) => Object.keys(def.shape ?? {})))];
}

/**
 * An issue's message, with ` Did you mean "title"?` after an unrecognised key that is a typo of a
 * key the schema takes at that place (zod's `Unrecognized key: "titel"`).
 */
export function messageWithHint(schema: z.core.$ZodType, issue: z.core.$ZodIssue): string {
  if (issue.code !== 'unrecognized_keys' || issue.keys.length !== 1) return issue.message;
  const hint = didYouMean(issue.keys[0]!, keysAt(schema, issue.path));
  return hint ? `${issue.message}.${hint}` : issue.message;
}

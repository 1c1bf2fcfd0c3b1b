/**
 * The JSON Schema of scenario files for editors (`scenarios/scenario.schema.json`), made from the
 * zod schema of the file format.
 * @module
 */
import { z } from 'zod';
import { scenarioFileSchema } from './format.js';

/**
 * The JSON Schema of scenario files, generated from the contract (draft 2020-12). Written to
 * `scenarios/scenario.schema.json` by `npm run generate:scenarios` so editors autocomplete and
 * validate; refinements that JSON Schema cannot say (e.g. `position` indexes) are checked by
 * `mockvideo validate`.
 */
export function scenarioJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(scenarioFileSchema, { unrepresentable: 'any', io: 'input', reused: 'ref' }) as Record<
    string,
    unknown
  >;
  return { ...withStubConditions(schema), title: 'mockvideo scenario' };
}

type JsonSchema = Record<string, unknown>;

/**
 * `schema` with each `anyOf` between the shapes of a stub made an `if`/`then`/`else` on what tells
 * them apart: a list of stubs (`type: array`) or one, a `sequence` stub or a single response. With
 * `anyOf`, an editor reports the first shape's complaint ("must have required property 'sequence'")
 * before the real problem in `data`; with a condition it checks the one shape that applies.
 */
function withStubConditions(schema: JsonSchema): JsonSchema {
  const defs = (schema.$defs ?? {}) as Record<string, JsonSchema>;
  const deref = (node: JsonSchema): JsonSchema =>
    typeof node.$ref === 'string' ? (defs[node.$ref.replace('#/$defs/', '')] ?? node) : node;
  const visit = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(visit);
    if (typeof node !== 'object' || node === null) return node;
    const out: JsonSchema = Object.fromEntries(Object.entries(node).map(([key, value]) => [key, visit(value)]));
    const options = out.anyOf as JsonSchema[] | undefined;
    if (options?.length !== 2) return out;
    const [a, b] = options.map(deref) as [JsonSchema, JsonSchema];
    const isList = (o: JsonSchema) => o.type === 'array';
    const isSequence = (o: JsonSchema) => Array.isArray(o.required) && o.required.includes('sequence');
    const test =
      isList(a) !== isList(b)
        ? { kind: { type: 'array' }, first: isList(a) }
        : isSequence(a) !== isSequence(b)
          ? { kind: { type: 'object', required: ['sequence'] }, first: isSequence(a) }
          : undefined;
    if (!test) return out;
    const { anyOf: _, ...rest } = out;
    const [then, otherwise] = test.first ? options : [options[1], options[0]];
    return { ...rest, if: test.kind, then, else: otherwise };
  };
  return visit(schema) as JsonSchema;
}

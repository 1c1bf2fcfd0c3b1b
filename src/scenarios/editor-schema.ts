/**
 * The JSON Schema of scenario files for editors (`scenarios/scenario.schema.json`), made from the
 * zod schema of the file format.
 * @module
 */
import { z } from 'zod';
import { scenarioFileSchema } from './format.js';

/** What tells the two shapes of a stub apart, on the zod side and in JSON Schema: a list of stubs or one, a `sequence` stub or a single response. */
const SHAPE_TESTS: ReadonlyArray<[(option: z.core.$ZodType) => boolean, object]> = [
  [(option) => option instanceof z.ZodArray || option instanceof z.ZodTuple, { type: 'array' }],
  [(option) => option instanceof z.ZodObject && 'sequence' in option.shape, { type: 'object', required: ['sequence'] }],
];

/**
 * The JSON Schema of scenario files, generated from the contract (draft 2020-12). Written to
 * `scenarios/scenario.schema.json` by `npm run generate:scenarios` so editors autocomplete and
 * validate; refinements that JSON Schema cannot say (e.g. `position` indexes) are checked by
 * `mockvideo validate`.
 *
 * Each `anyOf` between the two shapes of a stub becomes an `if`/`then`/`else` on what tells them
 * apart ({@link SHAPE_TESTS}). With `anyOf`, an editor reports the first shape's complaint ("must
 * have required property 'sequence'") before the real problem in `data`; with a condition it checks
 * the one shape that applies.
 */
export function scenarioJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(scenarioFileSchema, {
    unrepresentable: 'any',
    io: 'input',
    reused: 'ref',
    override: ({ zodSchema, jsonSchema }) => {
      const options = zodSchema instanceof z.ZodUnion ? zodSchema.options : [];
      const { anyOf } = jsonSchema;
      if (options.length !== 2 || anyOf?.length !== 2) return;
      for (const [is, kind] of SHAPE_TESTS) {
        const [first, second] = options.map(is);
        if (first === second) continue;
        const [then, otherwise] = first ? anyOf : [anyOf[1], anyOf[0]];
        delete jsonSchema.anyOf;
        Object.assign(jsonSchema, { if: kind, then, else: otherwise });
        return;
      }
    },
  });
  return { ...schema, title: 'mockvideo scenario' };
}

import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { scenarioHeaderSchema } from './format.js';
import { messageWithHint } from './key-hints.js';
import { stubSchemas } from './stub-schema.js';

describe('the keys a hint is chosen from', () => {
  /** The hint for the unrecognised key `typed` at `path` below `schema`. */
  const hintAt = (schema: z.core.$ZodType, path: PropertyKey[], typed: string) =>
    messageWithHint(schema, {
      code: 'unrecognized_keys',
      keys: [typed],
      path,
      message: `Unrecognized key: "${typed}"`,
      input: {},
    } as z.core.$ZodIssue);

  it('finds the keys a scenario file takes at a path: the top, a stub, its data, an item of a list, a step of a sequence', () => {
    const recomm = stubSchemas('localplay/recomm', false);
    expect(hintAt(scenarioHeaderSchema, [], 'descriptio')).toMatch(/Did you mean "description"\?$/);
    expect(hintAt(recomm.single, [], 'wehn')).toMatch(/Did you mean "when"\?$/);
    expect(hintAt(stubSchemas('meta/setting', true).single, ['data'], 'codec_levl')).toMatch(
      /Did you mean "codec_level"\?$/,
    );
    expect(hintAt(recomm.single, ['data', 0], 'titel')).toMatch(/Did you mean "title"\?$/);
    expect(hintAt(recomm.sequence, ['sequence', 1, 'data', 3], 'image_rul')).toMatch(/Did you mean "image_url"\?$/);
    expect(hintAt(recomm.single, ['nowhere'], 'titel')).toBe('Unrecognized key: "titel"');
  });
});

describe('messageWithHint', () => {
  const single = stubSchemas('localplay/recomm', false).single;
  const issueOf = (value: unknown) =>
    single.safeParse(value).error!.issues.find((i) => i.code === 'unrecognized_keys')!;

  it('names the closest key for a typo, and nothing for a word far from every key', () => {
    expect(messageWithHint(single, issueOf({ data: [], stauts: 200 }))).toBe(
      'Unrecognized key: "stauts". Did you mean "status"?',
    );
    expect(messageWithHint(single, issueOf({ data: [], colour: 'red' }))).toBe('Unrecognized key: "colour"');
  });
});

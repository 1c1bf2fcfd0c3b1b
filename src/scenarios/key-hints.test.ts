import { describe, expect, it } from 'vitest';
import { scenarioHeaderSchema } from './format.js';
import { keysAt, messageWithHint } from './key-hints.js';
import { stubSchemas } from './stub-schema.js';

describe('keysAt', () => {
  it('finds the keys a scenario file takes at a path: the top, a stub, its data, an item of a list, a step of a sequence', () => {
    const recomm = stubSchemas('localplay/recomm', false);
    expect(keysAt(scenarioHeaderSchema, [])).toContain('description');
    expect(keysAt(recomm.single, [])).toEqual(expect.arrayContaining(['data', 'status', 'when', 'fault']));
    expect(keysAt(stubSchemas('meta/setting', true).single, ['data'])).toContain('codec_level');
    expect(keysAt(recomm.single, ['data', 0])).toContain('title');
    expect(keysAt(recomm.sequence, ['sequence', 1, 'data', 3])).toContain('image_url');
    expect(keysAt(recomm.single, ['nowhere'])).toEqual([]);
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

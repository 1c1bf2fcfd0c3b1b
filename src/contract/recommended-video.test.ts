import { describe, expect, it } from 'vitest';
import { item } from '../../test/support/minimal-scenario.js';
import { buildDeepLink } from './deep-link.js';
import { diversionSetSchema } from './diversion.js';
import { recommendationsSchema } from './recommended-video.js';
import { targetProblems } from './recommended-video-target.js';

describe('recommended video items', () => {
  it('accepts a well-formed list', () => {
    expect(recommendationsSchema.safeParse([item('a', 0, 1), item('b', 1, 1)]).success).toBe(true);
  });

  it('names the rule a target breaks', () => {
    const good = item('a', 0, 1);
    const raw = good.target.replace(/default=[^&]+/, 'default=mv://raw?x=1');
    expect(targetProblems(raw, good.id).map(([p]) => p)).toContain('default');
    const wrongDetail = good.target.replace('detail_id=V-cp1-a', 'detail_id=V-cp1-zzz');
    expect(targetProblems(wrongDetail, good.id)).toEqual([
      ['detail_id', 'detail_id must equal the item id "V-cp1-a", found "V-cp1-zzz"'],
    ]);
    const noRef = buildDeepLink({ scheme: 'mv', host: 'h', query: [['action', 'playVideo']] });
    expect(targetProblems(noRef, good.id).map(([p]) => p)).toEqual(
      expect.arrayContaining(['id', 'ref', 'position', 'back_scheme']),
    );
  });

  it('checks position indexes in list order', () => {
    const result = recommendationsSchema.safeParse([item('a', 0, 1), item('b', 0, 1)]);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]).toMatchObject({
      path: [1, 'target'],
      message: expect.stringContaining('(1), found 0'),
    });
  });

  it('takes diversion arrays in any order (the seed only observed them descending)', () => {
    const result = diversionSetSchema.safeParse({ end: [item('a', 0, 1), item('b', 1, 5)], exit: [], suspend: [] });
    expect(result.success).toBe(true);
  });
});

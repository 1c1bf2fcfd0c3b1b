import { describe, expect, it } from 'vitest';
import { minimalScenario } from '../../test/support/minimal-scenario.js';
import { compareAnswers, type DriftAnswer } from './compare.js';
import { volatilePaths } from './noise.js';
import { compareShapes, shapeOf } from './shape.js';

const answer = (value: unknown, status = 200): DriftAnswer => ({ status, body: JSON.stringify(value) });
const envelope = (data: unknown) => ({ data, msg: 'OK', result: 1 });

describe('compareShapes', () => {
  it('reports added and removed fields, and a type the recording never had, including null and a number sent as text', () => {
    const differences = compareShapes(
      shapeOf({ a: 1, b: 'x', c: 'y', gone: true }),
      shapeOf({ a: '1', b: null, c: 'z', fresh: [] }),
    );
    expect(differences).toEqual([
      { path: 'a', recorded: 'number', live: 'string', kind: 'type' },
      { path: 'b', recorded: 'string', live: 'null', kind: 'type' },
      { path: 'gone', recorded: 'boolean', live: '—', kind: 'removed' },
      { path: 'fresh', recorded: '—', live: 'array', kind: 'added' },
    ]);
  });

  it('compares array items by their union shape, not by index: reordering or fewer items is no difference', () => {
    const recorded = shapeOf([
      { id: 'a', icon: 'x' },
      { id: 'b', icon: null },
    ]);
    expect(compareShapes(recorded, shapeOf([{ id: 'c', icon: 'y' }]))).toEqual([]);
    expect(compareShapes(recorded, shapeOf([]))).toEqual([]);
    expect(
      compareShapes(
        recorded,
        shapeOf([
          { id: 'c', icon: 'y', rank: 2 },
          { id: 1, icon: 'z' },
        ]),
      ),
    ).toEqual([
      { path: '[].id', recorded: 'string', live: 'number|string', kind: 'type' },
      { path: '[].rank', recorded: '—', live: 'number', kind: 'added' },
    ]);
  });
});

describe('volatilePaths', () => {
  it('lists the values that differ between two answers under their [] path, and marks structural variation', () => {
    const noise = volatilePaths(
      {
        ts: 1,
        items: [
          { t: 'a', n: 1 },
          { t: 'b', n: 2 },
        ],
      },
      {
        ts: 2,
        items: [
          { t: 'a', n: 1 },
          { t: 'c', n: 2, x: 1 },
        ],
      },
    );
    expect(noise).toEqual([
      { path: 'items[].t', values: ['"b"', '"c"'], structural: false },
      { path: 'items[].x', values: ['—', 'number'], structural: true },
      { path: 'ts', values: ['1', '2'], structural: false },
    ]);
  });
});

describe('compareAnswers', () => {
  const recorded = answer(envelope({ updated_at: '2026-01-01', title: 'A', count: 3 }));

  it('ignores values, reports structure, and lists what varies between the live answers as noise', () => {
    const live = [
      answer(envelope({ updated_at: '2026-02-01', title: 'B', count: '3', extra: 1 })),
      answer(envelope({ updated_at: '2026-02-02', title: 'B', count: '4', extra: 1 })),
    ];
    const { differences, noise } = compareAnswers('meta/setting', [recorded], live);
    expect(differences.filter((d) => d.kind !== 'contract')).toEqual([
      { path: 'data.count', recorded: 'number', live: 'string', kind: 'type' },
      { path: 'data.extra', recorded: '—', live: 'number', kind: 'added' },
    ]);
    expect(noise.map((n) => n.path)).toEqual(['data.count', 'data.updated_at']);
  });

  it('reports a status change and an envelope change, but not when they vary between the live answers', () => {
    expect(
      compareAnswers('meta/setting', [recorded], [answer({ ...envelope({}), result: 0, msg: 'busy' }, 503)])
        .differences,
    ).toEqual([
      { path: '(status)', recorded: '200', live: '503', kind: 'status' },
      { path: 'result', recorded: '1', live: '0', kind: 'envelope' },
      { path: 'msg', recorded: '"OK"', live: '"busy"', kind: 'envelope' },
    ]);
    const flapping = compareAnswers(
      'meta/setting',
      [recorded],
      [answer(envelope({ updated_at: 'x', title: 'y', count: 1 }), 503), recorded],
    );
    expect(flapping.differences).toEqual([]);
    expect(flapping.noise.map((n) => n.kind)).toContain('noise');
  });

  it('reports a contract violation the recording did not have, and a body that is no longer JSON', () => {
    const plugin = minimalScenario().operations['meta/plugin'].data[0]!;
    const answers = (change: object) => answer(envelope([{ ...plugin, ...change }]));
    expect(
      compareAnswers('meta/plugin', [answers({})], [answers({ name: 'Renamed', updated_at: 1800000000 })]).differences,
    ).toEqual([]);
    const broken = compareAnswers('meta/plugin', [answers({})], [answers({ md5: 'not-a-checksum' })]).differences;
    expect(broken.map((d) => d.kind)).toEqual(broken.map(() => 'contract'));
    expect(broken.map((d) => d.path)).toContain('data[].md5');
    // The same break, with other values, is not new.
    expect(
      compareAnswers('meta/plugin', [answers({ md5: 'not-a-checksum' })], [answers({ md5: 'also-not-one' })])
        .differences,
    ).toEqual([]);
    expect(compareAnswers('meta/cp', [recorded], [{ status: 200, body: '<html>' }]).differences).toEqual([
      { path: '(body)', recorded: 'JSON', live: 'not JSON', kind: 'envelope' },
    ]);
  });
});

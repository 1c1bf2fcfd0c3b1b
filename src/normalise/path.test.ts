import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OPERATION_NAMES } from '../contract/core.js';
import { routeOf } from './path.js';

/** The path a route is read from: every route carries it (`Route.path`). */
const normalisePath = (raw: string) => routeOf(raw).path;

/** An odd but equivalent spelling of a path: percent-encoded characters, dot segments, doubled slashes, a trailing slash, a fragment. */
function oddSpelling(
  path: string,
  choices: { encode: boolean[]; dots: number[]; doubled: boolean[]; trailing: boolean; fragment: string | null },
): string {
  const segments = path
    .split('/')
    .slice(1)
    .map((segment, i) => {
      let out = choices.encode[i % choices.encode.length]
        ? [...segment].map((c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`).join('')
        : segment;
      const dots = choices.dots[i % choices.dots.length]!;
      if (dots === 1) out = `./${out}`;
      if (dots === 2) out = `x/../${out}`;
      return choices.doubled[i % choices.doubled.length] ? `/${out}` : out;
    });
  return `/${segments.join('/')}${choices.trailing ? '/' : ''}${choices.fragment === null ? '' : `#${choices.fragment}`}`;
}

const spelling = fc.record({
  encode: fc.array(fc.boolean(), { minLength: 1, maxLength: 6 }),
  dots: fc.array(fc.integer({ min: 0, max: 2 }), { minLength: 1, maxLength: 6 }),
  doubled: fc.array(fc.boolean(), { minLength: 1, maxLength: 6 }),
  trailing: fc.boolean(),
  fragment: fc.option(fc.string({ maxLength: 8 }), { nil: null }),
});
const scenarioName = fc.stringMatching(/^[a-z0-9][a-z0-9-]{0,15}$/);

describe('routeOf', () => {
  it('routes the six operations, meta/upgrade, the downloads and the rest', () => {
    expect(routeOf('/api/g1/meta/cp')).toMatchObject({ kind: 'operation', operation: 'meta/cp', scenario: undefined });
    expect(routeOf('/scenarios/gallery/api/g1/ad_config')).toMatchObject({
      kind: 'operation',
      operation: 'ad_config',
      scenario: 'gallery',
    });
    expect(routeOf('/scenarios/gallery/api/g1/meta/upgrade')).toMatchObject({ kind: 'upgrade', scenario: 'gallery' });
    expect(routeOf('/api/g1/nope')).toMatchObject({ kind: 'unknown-operation' });
    expect(routeOf('/api/g1')).toMatchObject({ kind: 'unknown-operation' });
    expect(routeOf('/__mockvideo/media/thumb/1.png')).toMatchObject({ kind: 'media' });
    expect(routeOf('/__mockvideo/plugins')).toMatchObject({ kind: 'plugins', file: undefined });
    expect(routeOf('/__mockvideo/plugins/abc.apk')).toMatchObject({ kind: 'plugins', file: 'abc.apk' });
    expect(routeOf('/__mockvideo/apk/a%22b.apk')).toMatchObject({ kind: 'apk', file: 'a"b.apk' });
    expect(routeOf('/__mockvideo/health')).toMatchObject({ kind: 'admin' });
    expect(routeOf('/%5F%5Fmockvideo/scenarios')).toMatchObject({ kind: 'admin', path: '/__mockvideo/scenarios' });
    expect(routeOf('/x/api/g1/meta/cp')).toMatchObject({ kind: 'other' });
    expect(routeOf('/api/g1/meta%2Fcp')).toMatchObject({ kind: 'unknown-operation' });
  });

  it('gives every odd spelling of an operation path the route of its plain spelling', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...OPERATION_NAMES, 'meta/upgrade'),
        fc.option(scenarioName, { nil: undefined }),
        spelling,
        (operation, scenario, choices) => {
          const plain = `${scenario === undefined ? '' : `/scenarios/${scenario}`}/api/g1/${operation}`;
          const odd = routeOf(oddSpelling(plain, choices));
          expect(odd).toEqual(routeOf(plain));
          expect(odd.kind).toBe(operation === 'meta/upgrade' ? 'upgrade' : 'operation');
          expect((odd as { scenario?: string }).scenario).toBe(scenario);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('gives every odd spelling of a download path the route of its plain spelling', () => {
    const path = fc.constantFrom(
      '/__mockvideo/media/thumb/streamly/sv1001.jpg',
      '/__mockvideo/plugins/0a1b.apk',
      '/__mockvideo/apk/cinebox.apk',
      '/__mockvideo/scenarios',
    );
    fc.assert(
      fc.property(path, spelling, (plain, choices) => {
        expect(routeOf(oddSpelling(plain, choices))).toEqual(routeOf(plain));
      }),
      { numRuns: 200 },
    );
  });
});

describe('the path of a route', () => {
  it('is idempotent and never throws', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (raw) => {
        const once = normalisePath(`/${raw}`);
        expect(normalisePath(once)).toBe(once);
        expect(once.startsWith('/')).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
  it('keeps escapes of reserved characters, so an encoded slash is no separator', () => {
    expect(normalisePath('/a%2fb/%7e')).toBe('/a%2Fb/~');
  });
});

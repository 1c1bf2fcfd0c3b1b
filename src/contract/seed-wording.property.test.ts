import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SHIPPED_SCENARIO_FILES } from '../scenarios/shipped.generated.js';
import { COMMON_PARAMETERS } from './common-parameters.js';
import { pluginEntrySchema } from './plugin.js';
import { recommendedVideoSchema } from './recommended-video.js';
import { INTEGER_SETTINGS, settingsSchema } from './settings.js';

// Issue 20, item 3: values generated from the seed's wording must be accepted. The old patterns
// refused, among others, `market_sign.nonce` "-4811:28657834" (`^\d+:\d+$`), a negative `_andver`
// or `_ts` (`^\d+$`), `version_code` "-1", `codec_level` "1e3" and a negative `updated_at`.

/** "integer" / "integer as text" / "integer, may be negative": any signed integer, beyond 2^53 too. */
const integerText = fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map(String);
/** "number as text" / "string holding a number": integers, decimals, exponents, signed. */
const numberText = fc.oneof(
  integerText,
  fc.double({ noNaN: true, noDefaultInfinity: true }).map(String),
  fc.tuple(fc.integer(), fc.nat()).map(([whole, fraction]) => `${whole}.${fraction}`),
);
const integer = fc.maxSafeInteger();

/** The generator for each format the seed's parameter table words as a kind of value (not an explicit shape). */
const BY_WORDING: Record<string, fc.Arbitrary<string>> = {
  'integer as text': integerText,
  'integer, may be negative': integerText,
  integer: integerText,
  'integer (Unix time in seconds)': integerText,
  string: fc.string(),
  'string, percent-encoded': fc.string(),
  'string, may be empty': fc.string(),
  'string (release channel)': fc.string(),
};

const defaultScenario = SHIPPED_SCENARIO_FILES.default as unknown as {
  operations: Record<string, { data: unknown } | Array<{ data: unknown }>>;
};
const dataOf = (operation: string) => {
  const stub = defaultScenario.operations[operation]!;
  return structuredClone((Array.isArray(stub) ? stub[0]! : stub).data);
};

describe('the contract accepts every value the seed words as a kind', () => {
  it.each(COMMON_PARAMETERS.filter((p) => BY_WORDING[p.format]).map((p) => [p.name, p.format, p.pattern] as const))(
    'common parameter %s (%s)',
    (_name, format, pattern) => {
      fc.assert(fc.property(BY_WORDING[format]!, (value) => pattern.test(value)));
    },
  );

  it('has a generator for every parameter that is not an explicit shape', () => {
    const explicit = [
      '64 lowercase hex characters',
      '<language>_<COUNTRY>',
      'two upper-case letters',
      '1 or 0 as text',
      'UUID',
      'non-empty opaque string',
      '<build>(<channel>)',
      '32 hex characters',
      '8 digits',
    ];
    expect(
      COMMON_PARAMETERS.filter((p) => !BY_WORDING[p.format] && !explicit.includes(p.format)).map((p) => p.name),
    ).toEqual([]);
  });

  it('runtime settings: integers of any sign, codec_level any string holding a number', () => {
    const base = dataOf('meta/setting') as Record<string, unknown>;
    const settings = fc.record({
      codec_level: numberText,
      ...Object.fromEntries(INTEGER_SETTINGS.map((name) => [name, integer])),
    });
    fc.assert(fc.property(settings, (values) => settingsSchema.safeParse({ ...base, ...values }).success));
  });

  it('plugin entry: nonce <number>:<number> signed, version_code a number as text, updated_at and version any integer', () => {
    const [entry] = dataOf('meta/plugin') as Array<Record<string, any>>;
    expect(
      pluginEntrySchema.safeParse({ ...entry, market_sign: { ...entry!.market_sign, nonce: '-4811:28657834' } })
        .success,
    ).toBe(true);
    fc.assert(
      fc.property(numberText, numberText, numberText, integer, (a, b, versionCode, updatedAt) => {
        const changed = {
          ...entry,
          updated_at: updatedAt,
          market_sign: { ...entry!.market_sign, nonce: `${a}:${b}` },
          params: { ...entry!.params, version_code: versionCode },
        };
        return pluginEntrySchema.safeParse(changed).success;
      }),
    );
  });

  it('recommended video item: duration and order any integer', () => {
    const [item] = dataOf('localplay/recomm') as Array<Record<string, unknown>>;
    fc.assert(
      fc.property(
        integer,
        integer,
        (duration, order) => recommendedVideoSchema.safeParse({ ...item, duration, order }).success,
      ),
    );
  });

  it('keeps strictness where the seed is explicit', () => {
    const pattern = (name: string) => COMMON_PARAMETERS.find((p) => p.name === name)!.pattern;
    expect(pattern('_sdevid').test('A'.repeat(64))).toBe(false);
    expect(pattern('_cam').test('0'.repeat(31))).toBe(false);
    expect(pattern('_anoyid').test('not-a-uuid')).toBe(false);
    expect(pattern('_plyver').test('2024061')).toBe(false);
    expect(pattern('_region').test('in')).toBe(false);
    expect(pattern('_andver').test('33.5')).toBe(false);
    const [entry] = dataOf('meta/plugin') as Array<Record<string, any>>;
    expect(pluginEntrySchema.safeParse({ ...entry, md5: entry!.md5.toUpperCase() }).success).toBe(false);
    expect(pluginEntrySchema.safeParse({ ...entry, market_sign: { ...entry!.market_sign, nonce: '12' } }).success).toBe(
      false,
    );
  });
});

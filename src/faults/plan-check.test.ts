import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FaultBoard, type FaultPlan } from './board.js';
import { FAULT_KINDS } from './fault.js';
import { faultBoardOf, type FaultSpec } from './plan-check.js';
import { parseFaultFlag, parseFaultPlan } from './plan.js';

/** The plan, or the error message, of `read(value)`. */
function outcome<T>(read: (value: T) => unknown, value: T): unknown {
  try {
    return { plan: read(value) };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

/** What the MSW handlers plan of one fault (`faultBoardOf`, checked without zod): the planned fault, or the refusal. */
const compiled = (spec: unknown) => outcome((one: unknown) => faultBoardOf([one as FaultSpec])!.list()[0], spec);

/** What a server plans of the same fault, read with zod by `read`, on a board like the handlers' (`times` per device). */
const withZod = <T>(read: (value: T) => FaultPlan, value: T) =>
  outcome((one: T) => new FaultBoard('client').add(read(one)), value);

const FLAGS = [
  'status',
  'meta/cp=status',
  'meta/setting=status:503',
  'status:204',
  'status:99',
  'status:abc',
  'delay',
  'delay:200-800',
  'delay:800-200',
  'delay:120001',
  'ad_config=envelope:-3',
  'envelope:1',
  'envelope',
  'malformed-json',
  'empty',
  'localplay/recomm=reset',
  'hang',
  'reset:5',
  'stauts:503',
  'meta/nope=reset',
  '*=empty',
  'meta/cp=status:503@a1a1',
  'reset@address:::1',
  'reset@',
  '',
];

const VALUES: unknown[] = [
  { operation: 'meta/cp', kind: 'status', times: 1 },
  { kind: 'reset', times: 3, state: 'global' },
  { kind: 'delay', ms: [10, 20], rate: 0.5, seed: 7 },
  { kind: 'status', status: 502, body: 'down' },
  { kind: 'envelope', result: 0, msg: 'no' },
  { kind: 'status', stauts: 503 },
  { kind: 'status', times: 0 },
  { kind: 'status', times: 1.5 },
  { kind: 'hang', state: 'everyone' },
  { kind: 'delay', ms: [1, 2, 3] },
  { kind: 'delay', ms: -1 },
  { kind: 'nope' },
  { operation: 'meta/cp' },
  { kind: 'empty', rate: 2 },
  { kind: 'reset', seed: 0.5 },
  { kind: 'reset', device: 'a1a1' },
  { kind: 'reset', device: '' },
  { kind: 'reset', device: 'a\u001b[2J' },
  { kind: 'reset', device: 7 },
  // (A string is a flag to the handlers: FLAGS.)
  null,
  [],
  42,
];

describe('the faults of MSW handlers, checked without zod', () => {
  it.each(FLAGS)('reads the flag %j as parseFaultFlag does: the same plan, or the same refusal', (flag) => {
    const zod = withZod(parseFaultFlag, flag);
    const plain = compiled(flag);
    if ('plan' in (zod as object)) expect(plain).toEqual(zod);
    else {
      // Refused by both, with the fault, the flag and the form named; the field named the same.
      const message = (plain as { error?: string }).error;
      expect(message, JSON.stringify(plain)).toMatch(
        new RegExp(`^\\[mockvideo\\] faults\\[0\\]: --fault ${flag.replace(/[*]/g, '\\*')}: `),
      );
      expect((zod as { error: string }).error).toContain(`"${/"(\w+)"/.exec(message!)?.[1]}"`);
    }
  });

  it.each(VALUES.map((value) => [JSON.stringify(value), value]))(
    'reads the JSON %s as parseFaultPlan does',
    (_label, value) => {
      const zod = withZod(parseFaultPlan, value);
      const plain = compiled(value);
      if ('plan' in (zod as object)) expect(plain).toEqual(zod);
      else {
        // Refused by both; the field the compiled check names is in zod's message too (zod names an unknown key in its text).
        const field = /"([\w.]+)"/.exec((plain as { error: string }).error)?.[1];
        expect((zod as { error: string }).error).toContain(`"${field}"`);
      }
    },
  );

  it('accepts exactly what the schemas accept, for arbitrary plans', () => {
    const field = fc.oneof(
      fc.integer({ min: -10, max: 700 }),
      fc.double(),
      fc.string({ maxLength: 4 }),
      fc.constant(undefined),
    );
    const plan = fc.record(
      {
        kind: fc.oneof(fc.constantFrom(...FAULT_KINDS), fc.string({ maxLength: 3 })),
        operation: fc.constantFrom('meta/cp', 'ad_config', 'nope'),
        times: field,
        state: fc.constantFrom('client', 'global', 'all'),
        ms: fc.oneof(field, fc.tuple(fc.integer({ min: -1, max: 130_000 }), fc.integer({ min: -1, max: 130_000 }))),
        status: field,
        result: field,
        rate: field,
        seed: field,
        body: field,
        msg: field,
        other: field,
      },
      { requiredKeys: ['kind'] },
    );
    fc.assert(
      fc.property(plan, (value) => {
        const defined = Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined));
        const zod = withZod(parseFaultPlan, defined);
        const plain = compiled(defined);
        expect('plan' in (plain as object)).toBe('plan' in (zod as object));
        if ('plan' in (zod as object)) expect(plain).toEqual(zod);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('faultBoardOf', () => {
  it('plans each fault in order, flags and JSON alike, and names the one that is wrong', () => {
    const board = faultBoardOf(['meta/setting=status:503', { operation: 'meta/cp', kind: 'reset', times: 1 }])!;
    expect(board.list().map((p) => [p.spec, p.times, p.state])).toEqual([
      ['meta/setting=status:503', null, 'client'],
      ['meta/cp=reset', 1, 'client'],
    ]);
    expect(faultBoardOf([])).toBeUndefined();
    expect(() => faultBoardOf(['reset', 'stauts:503'])).toThrow(
      /^\[mockvideo\] faults\[1\]: --fault stauts:503: Invalid fault: "kind": not a fault kind\. Kinds: delay, status/,
    );
  });
});

import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { OPERATIONS, envelopeSchema } from '../../src/contract/index.js';
import { OPERATION_NAMES, type OperationName } from '../../src/contract/operation-table.js';
import { caseId, fuzzAnswer, parseCase } from '../../src/fuzz/case.js';
import { EDGE_CLASSES } from '../../src/fuzz/classes.js';

/** Draws per operation validated by the contract (half of them beyond observed). */
const DRAWS = 2000;
/** Within this many draws of an operation, each of its named classes is reached. */
const CLASS_BOUND = 600;

const schemas = Object.fromEntries(
  OPERATION_NAMES.map((op) => [op, envelopeSchema(OPERATIONS[op].dataSchema)]),
) as Record<OperationName, ReturnType<typeof envelopeSchema>>;

describe('fuzz generator', () => {
  it.each(OPERATION_NAMES)(
    `every one of ${DRAWS} answers of %s passes the contract, envelope included`,
    (operation) => {
      const failures: string[] = [];
      for (let call = 1; call <= DRAWS; call++) {
        const answer = fuzzAnswer({ seed: 7, operation, call, beyondObserved: call % 2 === 0 });
        const parsed = schemas[operation].safeParse(JSON.parse(answer.text));
        if (!parsed.success) failures.push(`${answer.case}: ${parsed.error.issues[0]?.message}`);
        else expect(parsed.data).toMatchObject({ msg: 'OK', result: 1 });
      }
      expect(failures.slice(0, 5)).toEqual([]);
    },
  );

  it.each(OPERATION_NAMES)(`reaches every named class of %s within ${CLASS_BOUND} draws`, (operation) => {
    const seen = new Set<string>();
    for (let call = 1; call <= CLASS_BOUND; call++) {
      for (const beyondObserved of [false, true])
        for (const name of fuzzAnswer({ seed: 11, operation, call, beyondObserved }).classes) seen.add(name);
    }
    const expected = EDGE_CLASSES.filter((c) => c.operations.includes(operation)).map((c) => c.name);
    expect(expected.filter((name) => !seen.has(name))).toEqual([]);
  });

  it('names diversion-arrays-differ exactly when the JSON texts of the three arrays differ', () => {
    let differ = 0;
    for (let call = 1; call <= 400; call++) {
      const answer = fuzzAnswer({ seed: 19, operation: 'localplay/diversion', call, beyondObserved: true });
      const lists = Object.values(JSON.parse(answer.text).data as Record<string, unknown[]>);
      const texts = new Set(lists.map((list) => JSON.stringify(list)));
      expect(answer.classes.includes('diversion-arrays-differ'), answer.case).toBe(texts.size > 1);
      if (texts.size > 1) differ++;
    }
    expect(differ).toBeGreaterThan(0);
    expect(differ).toBeLessThan(400);
  });

  it('holds what the seed only observed unless asked to vary it', () => {
    const beyond = new Set(EDGE_CLASSES.filter((c) => c.beyondObserved).map((c) => c.name));
    for (const operation of OPERATION_NAMES) {
      for (let call = 1; call <= 300; call++) {
        expect(
          fuzzAnswer({ seed: 3, operation, call, beyondObserved: false }).classes.filter((name) => beyond.has(name)),
        ).toEqual([]);
      }
    }
  });

  it('draws lists of 100 items or more within 3,000 draws: items-many spreads over 20 to 200', () => {
    const lengths: number[] = [];
    for (let call = 1; call <= 3000; call++) {
      const { data } = JSON.parse(
        fuzzAnswer({ seed: 13, operation: 'localplay/recomm', call, beyondObserved: false }).text,
      );
      if (data.length >= 20) lengths.push(data.length);
    }
    expect(lengths.filter((n) => n >= 100).length).toBeGreaterThan(0);
    expect(Math.max(...lengths)).toBeLessThanOrEqual(200);
  });

  it('leaves every class switched off out of every answer, the rest still contract-valid', () => {
    const problems: string[] = [];
    for (const edge of EDGE_CLASSES) {
      for (const operation of edge.operations) {
        for (let call = 1; call <= 150; call++) {
          const answer = fuzzAnswer({
            seed: 17,
            operation,
            call,
            beyondObserved: true,
            integers: 64,
            off: [edge.name],
          });
          if (answer.classes.includes(edge.name)) problems.push(`${answer.case} falls in ${edge.name}`);
          if (!schemas[operation].safeParse(JSON.parse(answer.text)).success)
            problems.push(`${answer.case} is invalid`);
        }
      }
    }
    expect(problems.slice(0, 5)).toEqual([]);
  });

  it('draws integer extremes at the bounds of the width asked for, Unix times at 64 bits', () => {
    const extremes = (integers: 32 | 53 | 64) => {
      const seen = new Set<string>();
      for (let call = 1; call <= 400; call++) {
        const text = fuzzAnswer({ seed: 19, operation: 'meta/setting', call, beyondObserved: false, integers }).text;
        for (const [, n] of text.matchAll(/:(-?\d{10,})/g)) seen.add(n!);
      }
      return seen;
    };
    expect([...extremes(32)].filter((n) => Number(n) < -(2 ** 31) || Number(n) > 2 ** 31 - 1)).toEqual([]);
    expect(extremes(32)).toContain('2147483647');
    expect(extremes(53)).toContain('9007199254740991');
    expect(extremes(64)).toContain('9223372036854775807');
    const times = new Set<string>();
    for (let call = 1; call <= 400; call++)
      for (const [, n] of fuzzAnswer({ seed: 19, operation: 'meta/plugin', call, beyondObserved: false }).text.matchAll(
        /"updated_at":(-?\d+)/g,
      ))
        times.add(n!);
    expect(times).toContain('9223372036854775807');
    expect(times).toContain('-9223372036854775808');
  });

  it('names the options of a run in its case ids, and reads them back', () => {
    const parts = { seed: 42, operation: 'meta/plugin' as const, call: 3, beyondObserved: true, integers: 53 as const };
    expect(caseId({ ...parts, device: '0a1b2c3d', off: ['title-long', 'items-many'] })).toBe(
      '42:meta/plugin:3:beyond:int53:device=0a1b2c3d:off=items-many,title-long',
    );
    const only = caseId({ ...parts, off: EDGE_CLASSES.map((c) => c.name).filter((name) => name !== 'title-long') });
    expect(only).toBe('42:meta/plugin:3:beyond:int53:only=title-long,ad-config-empty');
    expect(caseId(parseCase(only))).toBe(only);
    expect(fuzzAnswer(only).text).toBe(fuzzAnswer(parseCase(only)).text);
    expect(() => parseCase('42:meta/plugin:3:off=nope')).toThrow('Unknown edge class "nope"');
    expect(() => parseCase('42:meta/plugin:3:int16')).toThrow('"int16" is no option of a case');
  });

  it('writes & as \\u0026 in every answer text', () => {
    for (let call = 1; call <= 200; call++)
      expect(fuzzAnswer({ seed: 5, operation: 'localplay/recomm', call, beyondObserved: false }).text).not.toContain(
        '&',
      );
  });

  it('reads and writes case ids, and names what is wrong with one', () => {
    expect(parseCase('42:meta/plugin:3')).toEqual({
      seed: 42,
      operation: 'meta/plugin',
      call: 3,
      beyondObserved: false,
    });
    expect(caseId(parseCase('42:meta/plugin:3:beyond'))).toBe('42:meta/plugin:3:beyond');
    expect(() => parseCase('42:meta/nope:3')).toThrow('"meta/nope" is not an operation');
    expect(() => parseCase('42-3')).toThrow('A case looks like 42:meta/plugin:3');
  });

  it('rebuilds the same bytes from the same case in another process', () => {
    const cases = OPERATION_NAMES.flatMap((operation) =>
      [1, 2, 3].map((call) => caseId({ seed: 42, operation, call, beyondObserved: call === 3 })),
    );
    const digest = (texts: string[]) => createHash('sha256').update(texts.join('\n')).digest('hex');
    const here = digest(cases.map((c) => fuzzAnswer(c).text));
    const script = `import { fuzzAnswer } from './src/fuzz/case.ts'; import { createHash } from 'node:crypto';
      const cases = ${JSON.stringify(cases)};
      process.stdout.write(createHash('sha256').update(cases.map((c) => fuzzAnswer(c).text).join('\\n')).digest('hex'));`;
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: new URL('../..', import.meta.url),
      encoding: 'utf8',
    });
    expect(child.stderr).toBe('');
    expect(child.stdout).toBe(here);
    expect(fuzzAnswer('42:localplay/recomm:1').text).not.toBe(fuzzAnswer('42:localplay/recomm:2').text);
  });
});

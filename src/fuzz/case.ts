/**
 * The answer of a case. A case names one generated answer: the seed, the operation,
 * the device's call number of that operation (from 1) and whether beyond-observed answers were
 * asked for: `42:meta/plugin:3`, `42:meta/plugin:3:beyond`. The answer is drawn with fast-check's
 * `fc.sample` from a seed derived from the case text, so a case rebuilds the same bytes in any
 * process and adapter. Any runtime.
 * @module
 */
import fc from 'fast-check';
import type { OperationName } from '../contract/operation-table.js';
import { caseId, parseCase, type FuzzAnswer, type FuzzCase } from './case-id.js';
import { classesOf } from './classes.js';
import { answerArbitrary } from './operations.js';

export * from './case-id.js';

type AnswerArbitrary = ReturnType<typeof answerArbitrary>;
const arbitraries = new Map<string, AnswerArbitrary>();

/** The answer arbitrary of an operation (built once per operation and option: arbitraries are immutable). */
function arbitraryOf(operation: OperationName, beyondObserved: boolean): AnswerArbitrary {
  const key = `${operation}:${beyondObserved}`;
  let made = arbitraries.get(key);
  if (!made) arbitraries.set(key, (made = answerArbitrary(operation, { beyondObserved })));
  return made;
}

/** The answer of a case (its id or its parts): the same text every time, in every process. */
export function fuzzAnswer(which: string | FuzzCase): FuzzAnswer {
  const parts = typeof which === 'string' ? parseCase(which) : which;
  const id = caseId(parts);
  const [drawn] = fc.sample(arbitraryOf(parts.operation, parts.beyondObserved), {
    seed: fc.hash(id),
    numRuns: 1,
    randomType: 'xoroshiro128plus',
  });
  return {
    case: id,
    operation: parts.operation,
    text: drawn!.text,
    classes: classesOf(parts.operation, drawn!.value.data, drawn!.text),
  };
}

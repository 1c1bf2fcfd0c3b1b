/**
 * The answer of a case. A case names one generated answer: the seed, the operation,
 * the device's call number of that operation (from 1) and whether beyond-observed answers were
 * asked for: `42:meta/plugin:3`, `42:meta/plugin:3:beyond`. The answer is drawn with fast-check's
 * `fc.sample` from a seed derived from the case text, so a case rebuilds the same bytes in any
 * process and adapter. Any runtime.
 * @module
 */
import fc from 'fast-check';
import { OPERATION_NAMES } from '../contract/operation-table.js';
import { caseId, parseCase, type FuzzAnswer, type FuzzCase } from './case-id.js';
import { classesOf } from './classes.js';
import { answerArbitrary } from './operations.js';

export * from './case-id.js';

/** The answer arbitrary of each operation, observed (`[0]`) and beyond observed (`[1]`). */
const ANSWERS = Object.fromEntries(
  OPERATION_NAMES.map((op) => [op, [answerArbitrary(op), answerArbitrary(op, { beyondObserved: true })]]),
);

/** The answer of a case (its id or its parts): the same text every time, in every process. */
export function fuzzAnswer(which: string | FuzzCase): FuzzAnswer {
  const parts = typeof which === 'string' ? parseCase(which) : which;
  const id = caseId(parts);
  const [drawn] = fc.sample(ANSWERS[parts.operation]![Number(parts.beyondObserved)]!, {
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

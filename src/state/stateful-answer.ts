import { resolveNow } from '../clock/clock.js';
import { STEP_HEADER } from './client-state.js';

/** What {@link statefulAnswer} changes in an answer: its headers and its body text. */
interface TextAnswer {
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** Per shared answer: its body with the clock's times, for the last second it was asked for. */
const timed = new WeakMap<TextAnswer, { at: number; answer: TextAnswer }>();
/** Per answer: its copies with a step header, by step. */
const stepped = new WeakMap<TextAnswer, Map<string, TextAnswer>>();

/**
 * A shared answer (never changed) with what depends on state: the times relative to the clock in its
 * body resolved at `nowSeconds` (Unix seconds; `undefined`: the body has none, see `NOW_PLACEHOLDER`),
 * and the `x-mockvideo-step` header of a sequence's `step` (`undefined`: not a sequence). The copies
 * are made once per answer and step, and once per second of the clock, then shared: an answer with
 * neither is returned as it is, so the answer cache of `preparedAnswer` keeps working for it.
 */
export function statefulAnswer<A extends TextAnswer>(
  answer: A,
  step: string | undefined,
  nowSeconds: number | undefined,
): A {
  let made: A = answer;
  if (nowSeconds !== undefined) {
    const last = timed.get(answer);
    if (last && last.at === nowSeconds) made = last.answer as A;
    else {
      made = { ...answer, body: resolveNow(answer.body, nowSeconds) };
      timed.set(answer, { at: nowSeconds, answer: made });
    }
  }
  if (step === undefined) return made;
  let byStep = stepped.get(made);
  if (!byStep) stepped.set(made, (byStep = new Map()));
  let withStep = byStep.get(step) as A | undefined;
  if (!withStep) byStep.set(step, (withStep = { ...made, headers: { ...made.headers, [STEP_HEADER]: step } }));
  return withStep;
}

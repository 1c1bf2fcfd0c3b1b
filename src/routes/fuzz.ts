/**
 * Generated answers as an answer source of the routes (`serve --fuzz`, `fuzzHandlers`): every
 * request to an operation gets the answer of its case (seed, operation, the device's call number),
 * with the case in `x-mockvideo-fuzz`. The generator itself (`src/fuzz/`, which loads fast-check) is
 * handed in, so the routes never load fast-check. Any runtime.
 * @module
 */
import type { OperationName } from '../contract/core.js';
import { caseId, type FuzzAnswer, type FuzzCase } from '../fuzz/case-id.js';
import { JSON_CONTENT_TYPE } from '../scenarios/compile.js';
import { clientOf } from '../state/client-state.js';
import type { Answer } from './request.js';

/** The response header that names the case of a generated answer, e.g. `42:meta/plugin:3`. */
export const FUZZ_HEADER = 'x-mockvideo-fuzz';

/** What {@link FuzzAnswers} answers with. */
export interface FuzzRoutesOptions {
  /** The run's seed (0 ≤ seed < 2^32). */
  seed: number;
  /** Vary what the seed only observed too. */
  beyondObserved?: boolean;
  /** A case answered every time for its operation (`--fuzz-case`); the other operations are generated from its seed. */
  fixedCase?: FuzzCase;
  /** The generator: `fuzzAnswer` of `src/fuzz/` (handed in so the routes load no fast-check). */
  generate: (which: FuzzCase) => FuzzAnswer;
}

/** How many generated answers fell in each edge class, as `GET /__mockvideo/fuzz` reports it. */
export interface FuzzReport {
  seed: number;
  beyondObserved: boolean;
  fixedCase: string | null;
  /** Generated answers sent so far. */
  answers: number;
  /** Answers per edge class name (classes no answer fell in are left out). */
  classes: Record<string, number>;
  /** The last cases answered, newest last (at most {@link RECENT_CASES}). */
  recent: string[];
}

/** The most recent cases a {@link FuzzAnswers} keeps for its report. */
const RECENT_CASES = 50;

/** The most devices whose call numbers are kept; beyond, all are forgotten (a new run of calls starts). */
const MAX_DEVICES = 4096;

/**
 * The generated answers of a run: counts each device's calls per operation, answers the case of
 * each call, and tallies the edge classes answered.
 */
export class FuzzAnswers {
  /** The options, with the fixed case's seed and option when there is one (the other operations are generated from them). */
  readonly #options: Required<Omit<FuzzRoutesOptions, 'fixedCase'>> & Pick<FuzzRoutesOptions, 'fixedCase'>;
  readonly #calls = new Map<string, number>();
  readonly #classes = new Map<string, number>();
  readonly #recent: string[] = [];
  #answers = 0;

  constructor({ seed, beyondObserved = false, fixedCase, generate }: FuzzRoutesOptions) {
    seed = fixedCase?.seed ?? seed;
    this.#options = { seed, beyondObserved: fixedCase?.beyondObserved ?? beyondObserved, fixedCase, generate };
  }

  /** The case a request makes: the next call of `operation` by the device `clientOf(query, address)` names (or the fixed case). */
  nextCase(operation: OperationName, query: string, address?: string): FuzzCase {
    const { seed, beyondObserved, fixedCase } = this.#options;
    if (fixedCase?.operation === operation) return fixedCase;
    const key = `${clientOf(query, address)}\u0000${operation}`;
    if (this.#calls.size >= MAX_DEVICES * 6 && !this.#calls.has(key)) this.#calls.clear();
    const call = (this.#calls.get(key) ?? 0) + 1;
    this.#calls.set(key, call);
    return { seed, operation, call, beyondObserved };
  }

  /** The answer to a request to `operation`: 200, the case's JSON text, `x-mockvideo-fuzz: <case>`. */
  answer(operation: OperationName, query: string, address?: string): Answer {
    const made = this.#options.generate(this.nextCase(operation, query, address));
    this.#answers++;
    for (const name of made.classes) this.#classes.set(name, (this.#classes.get(name) ?? 0) + 1);
    this.#recent.push(made.case);
    if (this.#recent.length > RECENT_CASES) this.#recent.shift();
    return { status: 200, headers: { 'content-type': JSON_CONTENT_TYPE, [FUZZ_HEADER]: made.case }, body: made.text };
  }

  /** How many answers fell in each edge class so far. */
  report(): FuzzReport {
    const { seed, beyondObserved, fixedCase } = this.#options;
    return {
      seed,
      beyondObserved,
      fixedCase: fixedCase ? caseId(fixedCase) : null,
      answers: this.#answers,
      classes: Object.fromEntries(this.#classes),
      recent: [...this.#recent],
    };
  }
}

/**
 * Generated answers as an answer source of the routes (`serve --fuzz`, `fuzzHandlers`): every
 * request to an operation gets the answer of its case (seed, operation, the device's call number,
 * the run's options), with the case in the plan (`fuzz`, sent as `x-mockvideo-fuzz`). The generator
 * itself (`src/fuzz/`, which loads fast-check) is handed in, so the routes never load fast-check.
 * Any runtime.
 * @module
 */
import { MockvideoError } from '../errors.js';
import type { OperationName } from '../contract/core.js';
import { OPERATION_NAMES } from '../contract/operation-table.js';
import { caseId, deviceHash, type FuzzAnswer, type FuzzCase } from '../fuzz/case-id.js';
import { edgeClassesFor, type EdgeClass } from '../fuzz/classes.js';
import { classNames, drawOf, offClasses, type IntegerWidth } from '../fuzz/options.js';
import { JSON_CONTENT_TYPE } from '../scenarios/compile.js';
import { clientOf } from '../state/client-state.js';
import { FuzzCalls } from './fuzz-calls.js';
import type { Answer } from './request.js';

/** The headers of every generated answer. */
const FUZZ_ANSWER_HEADERS: Readonly<Record<string, string>> = Object.freeze({ 'content-type': JSON_CONTENT_TYPE });

/** What {@link FuzzAnswers} answers with. */
export interface FuzzRoutesOptions {
  /** The run's seed (0 ≤ seed < 2^32). */
  seed: number;
  /** Vary what the seed only observed too. */
  beyondObserved?: boolean;
  /** The width of the client's `int` in bits (default 32; Unix times are 64-bit at every width). */
  integers?: IntegerWidth;
  /** Draw only these edge classes (default every one). */
  classes?: readonly string[];
  /** Draw none of these edge classes. */
  exclude?: readonly string[];
  /** Mix the device into each case (`--fuzz-per-device`): a fleet of fresh devices draws different answers. */
  perDevice?: boolean;
  /** A case answered every time for its operation (`--fuzz-case`); the other operations are generated with its seed and options. */
  fixedCase?: FuzzCase;
  /** The generator: `fuzzAnswer` of `src/fuzz/` (handed in so the routes load no fast-check). */
  generate: (which: FuzzCase) => FuzzAnswer;
}

/** One edge class in a {@link FuzzReport}: what it draws (for the run's integer width), whether it is on, how many answers fell in it. */
export interface FuzzClassReport extends EdgeClass {
  /** Whether the run draws it: not switched off, and beyond observed when only that reaches it. */
  on: boolean;
  /** Generated answers that fell in it so far. */
  answers: number;
}

/** The run as `GET /__mockvideo/fuzz` reports it. */
export interface FuzzReport {
  seed: number;
  beyondObserved: boolean;
  /** The width of the client's `int`, in bits. */
  integers: IntegerWidth;
  perDevice: boolean;
  fixedCase: string | null;
  /** Generated answers sent so far. */
  answers: number;
  /** Every edge class, in `EDGE_CLASSES` order. */
  classes: FuzzClassReport[];
  /** The last cases answered, newest last (at most {@link RECENT_CASES}). */
  recent: string[];
}

/** The most recent cases a {@link FuzzAnswers} keeps for its report. */
const RECENT_CASES = 50;

/**
 * The generated answers of a run: counts each device's calls per operation, answers the case of
 * each call, tallies the edge classes answered, and switches classes on and off while serving.
 */
export class FuzzAnswers {
  readonly #seed: number;
  readonly #beyondObserved: boolean;
  readonly #integers: IntegerWidth;
  readonly #perDevice: boolean;
  readonly #fixedCase: FuzzCase | undefined;
  readonly #generate: (which: FuzzCase) => FuzzAnswer;
  /** The classes switched off, as `offClasses` gives them. */
  #off: string[];
  readonly #calls = new FuzzCalls();
  readonly #classes = new Map<string, number>();
  readonly #recent: string[] = [];
  #answers = 0;

  /** @throws Error naming an unknown class or a width that is none. */
  constructor(options: FuzzRoutesOptions) {
    const fixed = options.fixedCase;
    this.#seed = fixed?.seed ?? options.seed;
    this.#beyondObserved = fixed?.beyondObserved ?? options.beyondObserved ?? false;
    this.#integers = drawOf({ integers: fixed?.integers ?? options.integers }).integers;
    this.#perDevice = fixed ? fixed.device !== undefined : (options.perDevice ?? false);
    this.#fixedCase = fixed;
    this.#generate = options.generate;
    this.#off = fixed
      ? offClasses({ beyondObserved: this.#beyondObserved, exclude: fixed.off ?? [] })
      : offClasses({ beyondObserved: this.#beyondObserved, classes: options.classes, exclude: options.exclude });
  }

  /** The case a request makes: the next call of `operation` by the device `clientOf(query, address)` names (or the fixed case). */
  nextCase(operation: OperationName, query: string, address?: string): FuzzCase {
    const fixed = this.#fixedCase;
    if (fixed?.operation === operation) return fixed;
    const device = clientOf(query, address);
    const call = this.#calls.next(device, OPERATION_NAMES.indexOf(operation));
    const parts: FuzzCase = { seed: this.#seed, operation, call, beyondObserved: this.#beyondObserved };
    if (this.#integers !== 32) parts.integers = this.#integers;
    if (this.#perDevice) parts.device = deviceHash(device);
    if (this.#off.length > 0) parts.off = this.#off;
    return parts;
  }

  /** The answer to a request to `operation` (200, the case's JSON text) and its case id (the plan's `fuzz`, sent as `x-mockvideo-fuzz`). */
  answer(operation: OperationName, query: string, address?: string): { answer: Answer; case: string } {
    const made = this.#generate(this.nextCase(operation, query, address));
    this.#answers++;
    for (const name of made.classes) this.#classes.set(name, (this.#classes.get(name) ?? 0) + 1);
    this.#recent.push(made.case);
    if (this.#recent.length > RECENT_CASES) this.#recent.shift();
    return { answer: { status: 200, headers: FUZZ_ANSWER_HEADERS, body: made.text }, case: made.case };
  }

  /**
   * Switches the edge class `name` on or off for the answers from now on (the dashboard's switch);
   * their cases name the classes off, so each still rebuilds. `ad-config-empty` stays on while
   * `ad-config-fields` is off (every `ad_config` answer is one of the two).
   * @throws MockvideoError (`MV_USAGE`) naming an unknown class, or a beyond-observed class in a run without beyond observed.
   */
  setClass(name: string, on: boolean): FuzzReport {
    const [known] = classNames([name]);
    const edge = edgeClassesFor(this.#integers).find((c) => c.name === known)!;
    if (edge.beyondObserved && !this.#beyondObserved)
      throw new MockvideoError(
        'MV_USAGE',
        `The class ${name} is drawn only beyond observed: start with --fuzz-beyond-observed.`,
      );
    const off = new Set(this.#off);
    if (on) off.delete(name);
    else off.add(name);
    this.#off = offClasses({ beyondObserved: this.#beyondObserved, exclude: [...off] });
    return this.report();
  }

  /** The run: its options, every class (on or not, how many answers fell in it) and the last cases. */
  report(): FuzzReport {
    const fixed = this.#fixedCase;
    const off = new Set(this.#off);
    return {
      seed: this.#seed,
      beyondObserved: this.#beyondObserved,
      integers: this.#integers,
      perDevice: this.#perDevice,
      fixedCase: fixed ? caseId(fixed) : null,
      answers: this.#answers,
      classes: edgeClassesFor(this.#integers).map((c) => ({
        ...c,
        on: !off.has(c.name) && (this.#beyondObserved || !c.beyondObserved),
        answers: this.#classes.get(c.name) ?? 0,
      })),
      recent: [...this.#recent],
    };
  }
}

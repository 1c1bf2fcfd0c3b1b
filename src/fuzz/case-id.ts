/**
 * Case ids, without fast-check: `<seed>:<operation>:<call>` and the options that differ from the
 * defaults (`42:meta/plugin:3`, `42:meta/plugin:3:beyond:int53:device=1a2b3c4d:off=title-long`).
 * A case carries every option its answer depends on, so it rebuilds the same bytes anywhere. What
 * the routes and the CLI read and write; `case.ts` draws the answer of a case. Any runtime.
 * @module
 */
import { isOperationName, type OperationName } from '../contract/operation-table.js';
import { MockvideoError, errorText } from '../errors.js';
import { EDGE_CLASSES } from './classes.js';
import { classNames, offClasses, type IntegerWidth } from './options.js';

/** The parts of a case id. */
export interface FuzzCase {
  /** The run's seed: an integer 0 ≤ seed < 2^32. */
  seed: number;
  operation: OperationName;
  /** The device's call number of this operation, from 1. */
  call: number;
  /** Whether what the seed only observed was varied too (`:beyond`). */
  beyondObserved: boolean;
  /** The width of the client's `int` (`:int53`, `:int64`; default 32). */
  integers?: IntegerWidth;
  /** The device's hash, 8 lowercase hex (`:device=…`, `--fuzz-per-device`): the device is mixed into the draw. */
  device?: string;
  /** The edge classes switched off (`:off=…`, or `:only=…` naming those on when that is shorter). */
  off?: readonly string[];
}

/** A generated answer: its case, its JSON text (the body, sent as UTF-8) and the edge classes it falls in. */
export interface FuzzAnswer {
  case: string;
  operation: OperationName;
  text: string;
  classes: string[];
}

/** The largest seed (seeds are unsigned 32-bit integers). */
const MAX_SEED = 2 ** 32 - 1;

/** The case's classes switched off, as its id names them: in `EDGE_CLASSES` order, of those the case can draw. */
export const caseOff = (parts: FuzzCase): string[] =>
  parts.off?.length ? offClasses({ beyondObserved: parts.beyondObserved, exclude: parts.off }) : [];

/** The case id of its parts, e.g. `42:meta/plugin:3` (options after it, in a fixed order, only where they differ from the defaults). */
export function caseId(parts: FuzzCase): string {
  let id = `${parts.seed}:${parts.operation}:${parts.call}${parts.beyondObserved ? ':beyond' : ''}`;
  if (parts.integers !== undefined && parts.integers !== 32) id += `:int${parts.integers}`;
  if (parts.device !== undefined) id += `:device=${parts.device}`;
  const off = caseOff(parts);
  if (off.length === 0) return id;
  const on = EDGE_CLASSES.filter((c) => (parts.beyondObserved || !c.beyondObserved) && !off.includes(c.name));
  return on.length < off.length ? `${id}:only=${on.map((c) => c.name).join(',')}` : `${id}:off=${off.join(',')}`;
}

const CASE = /^(\d{1,10}):([a-z_/]+):([1-9]\d{0,14})((?::[a-z0-9=,-]+)*)$/;

/**
 * The parts of a case id.
 * @throws MockvideoError (`MV_USAGE`) naming what is wrong (`Cannot read fuzz case "…": …`) when it is not one.
 */
export function parseCase(text: string): FuzzCase {
  const m = CASE.exec(text.trim());
  const fail = (why: string) =>
    new MockvideoError(
      'MV_USAGE',
      `Cannot read fuzz case "${text}": ${why}. A case looks like 42:meta/plugin:3 (seed:operation:call), as the x-mockvideo-fuzz header sends it.`,
    );
  if (!m)
    throw fail('not of the form <seed>:<operation>:<call>[:beyond][:int53|:int64][:device=<hash>][:off=<classes>]');
  if (!isOperationName(m[2]!)) throw fail(`"${m[2]}" is not an operation`);
  const seed = Number(m[1]);
  if (seed > MAX_SEED) throw fail(`the seed is over ${MAX_SEED}`);
  const parts: FuzzCase = { seed, operation: m[2], call: Number(m[3]), beyondObserved: false };
  let only: string[] | undefined;
  for (const option of m[4]!.split(':').slice(1)) {
    const [name, value] = option.split('=', 2) as [string, string | undefined];
    if (option === 'beyond') parts.beyondObserved = true;
    else if (option === 'int53' || option === 'int64') parts.integers = Number(option.slice(3)) as IntegerWidth;
    else if (name === 'device' && value !== undefined && /^[0-9a-f]{8}$/.test(value)) parts.device = value;
    else if ((name === 'off' || name === 'only') && value !== undefined) {
      const names = readClasses(value, fail);
      if (name === 'off') parts.off = names;
      else only = names;
    } else throw fail(`"${option}" is no option of a case (beyond, int53, int64, device=<8 hex>, off=…, only=…)`);
  }
  if (only) parts.off = offClasses({ beyondObserved: parts.beyondObserved, classes: only });
  return parts;
}

/** The class names of an `off=`/`only=` list. @throws the `fail` error naming an unknown class. */
function readClasses(list: string, fail: (why: string) => Error): string[] {
  try {
    return classNames(list.split(','));
  } catch (error) {
    throw fail(errorText(error).replace(/\.$/, ''));
  }
}

/** Reads a seed (`--fuzz 42`): an integer 0 ≤ seed < 2^32. @throws MockvideoError (`MV_USAGE`) naming the value otherwise. */
export function parseSeed(text: string): number {
  const seed = Number(text);
  if (!/^\d{1,10}$/.test(text.trim()) || seed > MAX_SEED)
    throw new MockvideoError(
      'MV_USAGE',
      `Cannot read fuzz seed "${text}": a seed is an integer from 0 to ${MAX_SEED}.`,
    );
  return seed;
}

/** A random seed, for `serve --fuzz` without one. */
export const randomSeed = (): number => Math.floor(Math.random() * (MAX_SEED + 1));

/**
 * The hash of a device for a case (`--fuzz-per-device`): 32-bit FNV-1a of its UTF-16 code units,
 * as 8 lowercase hex. Not secret: it mixes the device into the draw and names it in the case.
 */
export function deviceHash(device: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < device.length; i++) hash = Math.imul(hash ^ device.charCodeAt(i), 0x01000193) >>> 0;
  return hash.toString(16).padStart(8, '0');
}

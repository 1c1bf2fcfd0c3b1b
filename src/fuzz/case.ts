/**
 * The answer of a case. A case names one generated answer: the seed, the operation, the device's
 * call number of that operation (from 1) and the options of the run (`42:meta/plugin:3`,
 * `42:meta/plugin:3:beyond:int53`). The answer is drawn with fast-check's `fc.sample` from a seed
 * derived from the case text, so a case rebuilds the same bytes in any process and adapter. The
 * plugin ids of call N are content-provider ids of the `meta/cp` answer of call N (the seed: a
 * plugin "id … equals the id of a content provider"), so a device's start-up gets plugins of its
 * own providers. Any runtime.
 * @module
 */
import fc from 'fast-check';
import { MockvideoError } from '../errors.js';
import type { ContentProvider } from '../contract/content-provider.js';
import type { OperationName } from '../contract/operation-table.js';
import { caseId, caseOff, parseCase, type FuzzAnswer, type FuzzCase } from './case-id.js';
import { answerOf, dataArbitraries, escapedText, noClassOff } from './operations.js';
import type { FuzzDraw } from './options.js';
import { pluginDraft, placePlugin, type PluginDraft } from './resources.js';
import { listOf } from './values.js';

export * from './case-id.js';

/** What one sample gives: the `data` (plugin drafts without their ids for `meta/plugin`) and whether the text escapes non-ASCII. */
type Sample = [data: unknown, escaped: boolean];

/** The sample arbitraries of every operation, for one draw. */
type Samplers = Record<OperationName, fc.Arbitrary<Sample>>;

/**
 * The samplers of each draw in use (beyond observed, integer width, classes off), made on first use
 * and kept: making them takes 7–20 ms (esbuild bundle, 2026-12-02), the time of a few hundred
 * answers, and a run uses one draw, or a few when the dashboard switches classes.
 */
const SAMPLERS = new Map<string, Samplers>();

/** The most draws whose samplers are kept (a dashboard switching classes makes a few). */
const MAX_SAMPLERS = 64;

function samplersOf(draw: FuzzDraw): Samplers {
  const key = `${draw.beyondObserved}:${draw.integers}:${[...draw.off].join(',')}`;
  let samplers = SAMPLERS.get(key);
  if (samplers) return samplers;
  const data: Record<OperationName, fc.Arbitrary<unknown>> = {
    ...dataArbitraries(draw),
    'meta/plugin': listOf(pluginDraft(draw), draw),
  };
  const escaped = escapedText(draw);
  samplers = Object.fromEntries(
    Object.entries(data).map(([operation, arbitrary]) => [operation, fc.tuple(arbitrary, escaped)]),
  ) as Samplers;
  if (SAMPLERS.size >= MAX_SAMPLERS) SAMPLERS.clear();
  SAMPLERS.set(key, samplers);
  return samplers;
}

/** The most draws of one case before giving up on an answer outside the classes switched off (each is a few in a thousand). */
const MAX_TRIES = 1000;

/** The answer of a case (its id or its parts): the same text every time, in every process. @throws MockvideoError (`MV_USAGE`) for a case that is none. */
export function fuzzAnswer(which: string | FuzzCase): FuzzAnswer {
  const { data: _, ...answer } = drawCase(typeof which === 'string' ? parseCase(which) : which);
  return answer;
}

/** The answer of a case and its `data`. */
function drawCase(parts: FuzzCase): FuzzAnswer & { data: unknown } {
  const id = caseId(parts);
  const draw: FuzzDraw = {
    beyondObserved: parts.beyondObserved,
    integers: parts.integers ?? 32,
    off: new Set(caseOff(parts)),
  };
  const sampler = samplersOf(draw)[parts.operation];
  const providers = parts.operation === 'meta/plugin' ? providerIds({ ...parts, operation: 'meta/cp' }) : [];
  for (let attempt = 0; attempt < MAX_TRIES; attempt++) {
    const [[data, escaped]] = fc.sample(sampler, {
      seed: fc.hash(attempt === 0 ? id : `${id}#${attempt}`),
      numRuns: 1,
      randomType: 'xoroshiro128plus',
    }) as [Sample];
    const placed =
      parts.operation === 'meta/plugin'
        ? providers.length === 0
          ? []
          : (data as PluginDraft[]).map((draft, i) => placePlugin(draft, providers[i % providers.length]!))
        : data;
    const answer = answerOf(parts.operation, placed, escaped);
    if (!noClassOff(draw, answer.classes)) continue;
    return { case: id, operation: parts.operation, text: answer.text, classes: answer.classes, data: placed };
  }
  throw new MockvideoError(
    'MV_USAGE',
    `Case ${id} found no answer outside the classes switched off in ${MAX_TRIES} draws.`,
  );
}

/** The ids of the content providers the `meta/cp` case answers, each once, in their order. */
function providerIds(cp: FuzzCase): string[] {
  return [...new Set((drawCase(cp).data as ContentProvider[]).map((provider) => provider.id))];
}

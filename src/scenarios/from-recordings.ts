/**
 * Turns a recording session into an editable scenario file: one stub per operation, a `sequence`
 * where the operation was answered several times, `is_from_gallery` variants as `when` stubs, the
 * recording host's URLs as `{origin}`, and `extends` on the closest shipped scenario where that
 * makes the file shorter (or where operations were not recorded). Served answers are the recorded
 * text byte for byte after `{origin}` substitution: an answer that `data` would re-serialise
 * differently (other escapes, key order, spacing) is kept as `body` text. Takes parsed recordings,
 * never paths.
 * @module
 */
import { OPERATION_NAMES, SUCCESS_MSG, SUCCESS_RESULT, type OperationName } from '../contract/core.js';
import type { ScenarioProblem } from '../errors.js';
import { DEFAULT_POLICY, REDACTED, decodeComponent, valueScrubber, type NamedRecording } from '../normalise/index.js';
import { checkScenarios } from './catalog.js';
import { answerStatusSchema } from '../faults/fault-schema.js';
import { ORIGIN_PLACEHOLDER, compileStub, prepareResponse } from './compile.js';
import type { Stub, StubResponse } from './format.js';
import { parseScenario, type ParsedScenario } from './parse.js';

/** Options of {@link scenarioFromRecordings}. */
export interface FromRecordingsOptions {
  /** The scenario name (the file is `<name>.json`). */
  name: string;
  /** Only the session of this device: recordings whose `_sdevid` is, or starts with, this value. */
  device?: string;
  /** Origins whose URLs become `{origin}` (`http://10.0.0.5:8080`), besides those of URLs to mockvideo media and packages (`/__mockvideo/…`), which are found in the bodies. */
  origins?: readonly string[];
  /** The scenarios it may extend (the shipped ones). */
  shipped: readonly ParsedScenario[];
  /** Where the recordings came from, for the description. */
  from?: string;
}

/**
 * Why an operation is not in the file (it is inherited from `extends`): `same`, recorded as the
 * extended scenario answers it; `not-servable`, recorded, but no recording of it can be served
 * (see the notes); `not-recorded`.
 */
type LeftOutReason = 'same' | 'not-servable' | 'not-recorded';

/** The scenario file, what was left out and why, and the problems `validate` would report (none when it validates). */
export interface ScenarioFromRecordings {
  file: { description: string; extends?: string; operations: Partial<Record<OperationName, Stub | Stub[]>> };
  /** The operations not in the file, in the seed's order, and why. */
  leftOut: { operation: OperationName; why: LeftOutReason }[];
  notes: string[];
  problems: ScenarioProblem[];
}

/** Recordings of one device: `_sdevid` equal to, or starting with, `device`. @throws Error when the recordings hold no device ids or none matches. */
function ofDevice(recordings: readonly NamedRecording[], device: string): NamedRecording[] {
  const idOf = (named: NamedRecording) => queryValues(named, '_sdevid')[0];
  const ids = new Set(recordings.map(idOf).filter((id): id is string => id !== undefined && id !== REDACTED));
  if (ids.size === 0)
    throw new Error(
      `the recordings hold no _sdevid values (they are redacted when recorded); record with --keep-identifiers to tell devices apart, or leave out --device`,
    );
  const chosen = recordings.filter((named) => idOf(named)?.startsWith(device));
  if (!chosen.length)
    throw new Error(
      `no recording of device "${device}"; the devices recorded are ${[...ids].map((id) => `${id.slice(0, 12)}…`).join(', ')}`,
    );
  return chosen;
}

/**
 * Origins of URLs in the bodies that point at mockvideo media and packages (`/__mockvideo/…`): the
 * recording was made from a mockvideo (a shared staging mock, a test). URLs written with escaped
 * slashes (`http:\/\/host\/__mockvideo\/…`, as some JSON writers do) count too.
 */
function recordedOrigins(recordings: readonly NamedRecording[]): string[] {
  const origins = new Set<string>();
  for (const { recording } of recordings) {
    for (const m of (recording.response.body ?? '').matchAll(
      /(https?:(?:\\?\/){2}[A-Za-z0-9.\-[\]:]+)\\?\/__mockvideo\\?\//g,
    ))
      origins.add(m[1]!.replaceAll('\\/', '/'));
  }
  return [...origins];
}

/** `text` with every URL of `origin` (`http://10.0.0.5:8080`), also written with escaped slashes (`http:\/\/10.0.0.5:8080`), starting with `{origin}` instead. */
function withOriginPlaceholder(text: string, origin: string): string {
  return text.split(origin.replaceAll('/', '\\/')).join(ORIGIN_PLACEHOLDER).split(origin).join(ORIGIN_PLACEHOLDER);
}

/** The values of query parameter `name` (compared decoded) of a recorded request, as recorded. */
function queryValues(named: NamedRecording, name: string): string[] {
  return named.recording.request.query.filter(([n]) => decodeComponent(n) === name).map(([, value]) => value);
}

/**
 * The stub response of a recorded body: `data` (with `msg`/`result` when not the defaults) when the
 * envelope serialised by mockvideo is exactly `text`; otherwise `body: text`.
 */
function responseOf(text: string, status: number): StubResponse {
  const extra: StubResponse = status === 200 ? {} : { status };
  try {
    // Re-serialising the envelope gives back `text` only for an object of exactly these keys, in this order.
    const { data, msg, result } = (JSON.parse(text) ?? {}) as Record<string, unknown>;
    if (data !== undefined && typeof msg === 'string' && typeof result === 'number') {
      const candidate: StubResponse = {
        data,
        ...(msg !== SUCCESS_MSG ? { msg } : {}),
        ...(result !== SUCCESS_RESULT ? { result } : {}),
        ...extra,
      };
      if (prepareResponse(candidate).body === text) return candidate;
    }
  } catch {
    // Not JSON: kept as text.
  }
  return { body: text, ...extra };
}

/** A stub of responses in recorded order: one response, or a sequence (trailing repeats dropped: the last answer repeats anyway). */
function stubOf(responses: StubResponse[], when?: Record<string, string>): Stub {
  const same = (a: StubResponse, b: StubResponse) => JSON.stringify(a) === JSON.stringify(b);
  while (responses.length > 1 && same(responses.at(-1)!, responses.at(-2)!)) responses.pop();
  const condition = when ? { when: { query: when } } : {};
  return responses.length === 1 ? { ...condition, ...responses[0]! } : { ...condition, sequence: responses };
}

/**
 * Builds a scenario file from a recording session. Recordings are taken in recorded order
 * (`recordedAt`, then file name); bodies kept as base64 (not UTF-8) and answers with a status a stub
 * cannot give (1xx, 204, 205, 304) are left out with a note. Identifier values kept in the recordings
 * (`--keep-identifiers`) are replaced by `<REDACTED>` in the bodies; the token never is in them.
 *
 * @throws Error when `device` matches nothing, or nothing servable was recorded.
 * @example scenarioFromRecordings(readRecordingDir('recordings/s1').recordings, { name: 'qa-s1', shipped: shippedScenarios() })
 */
export function scenarioFromRecordings(
  all: readonly NamedRecording[],
  options: FromRecordingsOptions,
): ScenarioFromRecordings {
  const notes: string[] = [];
  const recordings = [...(options.device !== undefined ? ofDevice(all, options.device) : all)].sort(
    (a, b) => a.recording.recordedAt.localeCompare(b.recording.recordedAt) || a.name.localeCompare(b.name),
  );
  const origins = [
    ...new Set([...(options.origins ?? []).map((o) => new URL(o).origin), ...recordedOrigins(recordings)]),
  ].sort((a, b) => b.length - a.length);
  // Identifiers kept in the files (--keep-identifiers) stay out of the scenario.
  const scrub = valueScrubber(
    recordings.flatMap(({ recording }) =>
      recording.request.query.map(([name, value]) => [decodeComponent(name), value] as const),
    ),
    DEFAULT_POLICY,
  );
  const textOf = (body: string) => {
    let text = body;
    for (const origin of origins) text = withOriginPlaceholder(text, origin);
    return scrub(text);
  };

  const operations: Partial<Record<OperationName, Stub | Stub[]>> = {};
  const unservable = new Set<OperationName>();
  for (const operation of OPERATION_NAMES) {
    const variants = new Map<string | undefined, StubResponse[]>();
    for (const named of recordings) {
      if (named.recording.operation !== operation) continue;
      const { method } = named.recording.request;
      const { status, body } = named.recording.response;
      const leftOut =
        method !== 'GET'
          ? `a ${method} request; a scenario answers GET requests, so it was left out`
          : body === undefined
            ? 'the body is not UTF-8 text; left out'
            : !answerStatusSchema.safeParse(status).success
              ? `status ${status} cannot be served by a stub; left out`
              : undefined;
      if (leftOut !== undefined) {
        notes.push(`${named.name}: ${leftOut}`);
        unservable.add(operation);
        continue;
      }
      const gallery = queryValues(named, 'is_from_gallery').pop();
      const variant =
        operation === 'localplay/diversion' && gallery !== undefined ? decodeComponent(gallery) : undefined;
      const list = variants.get(variant) ?? variants.set(variant, []).get(variant)!;
      list.push(responseOf(textOf(body!), status));
    }
    if (variants.size === 0) continue;
    const stubs = [...variants]
      .sort(([a], [b]) => String(a).localeCompare(String(b)))
      .map(([variant, responses]) =>
        stubOf(responses, variant === undefined ? undefined : { is_from_gallery: variant }),
      );
    operations[operation] = stubs.length === 1 ? stubs[0]! : stubs;
  }
  if (Object.keys(operations).length === 0)
    throw new Error('nothing in the recordings can be served by a scenario (no operation answered with a UTF-8 body)');

  const times = recordings.map((r) => r.recording.recordedAt);
  // The device is not named: an identifier stays out of the file.
  const description = `Recorded session${options.from ? ` ${options.from}` : ''}: ${recordings.length} answer(s) from ${times[0]} to ${times.at(-1)}${options.device ? ', one device' : ''}.`;
  const made = closestExtension(options.name, { description, operations }, options.shipped);
  const leftOut = OPERATION_NAMES.filter((op) => made.file.operations[op] === undefined).map((operation) => ({
    operation,
    why: ((operations[operation] !== undefined && 'same') ||
      (unservable.has(operation) && 'not-servable') ||
      'not-recorded') as LeftOutReason,
  }));
  return { ...made, leftOut, notes };
}

/** A file value's problems as `validate` reports them (parse, then resolve against the shipped scenarios). */
function problemsOf(name: string, file: object, shipped: readonly ParsedScenario[]): ScenarioProblem[] {
  const source = `${name}.json`;
  const result = parseScenario(name, file, source);
  if (!result.ok) return result.problems;
  return checkScenarios([...shipped.filter((s) => s.name !== name), result.scenario]).problems.filter(
    (p) => p.source === source,
  );
}

/**
 * Chooses `extends`: among the shipped scenarios, the one with the most operations compiled exactly
 * like the recorded ones (those are left out of the file), `default` first on a tie, without a
 * fault overlay, that makes a valid scenario; none when every operation was recorded and no shipped
 * scenario shares one. When no choice validates, the first one tried, with its problems.
 */
function closestExtension(
  name: string,
  own: ScenarioFromRecordings['file'],
  shipped: readonly ParsedScenario[],
): Pick<ScenarioFromRecordings, 'file' | 'problems'> {
  const recorded = Object.keys(own.operations) as OperationName[];
  const compiledOwn = (op: OperationName) => JSON.stringify([own.operations[op]!].flat().map(compileStub));
  // A scenario with a fault overlay (slow-network, flaky, ...) would pass its faults on: not a base for
  // recorded answers. The catalog lists `default` first; the stable sort keeps that order on a tie.
  const candidates = checkScenarios(shipped.filter((scenario) => scenario.name !== name))
    .catalog.list()
    .filter((scenario) => Object.keys(scenario.faults).length === 0)
    .map((scenario) => ({
      scenario,
      same: recorded.filter((op) => compiledOwn(op) === JSON.stringify(scenario.operations[op])),
    }))
    .sort((a, b) => b.same.length - a.same.length);
  const extend = ({ scenario, same }: (typeof candidates)[number]): ScenarioFromRecordings['file'] => ({
    description: own.description,
    extends: scenario.name,
    operations: Object.fromEntries(recorded.filter((op) => !same.includes(op)).map((op) => [op, own.operations[op]])),
  });
  // Shorter first; a file with all six operations stands alone rather than extend a scenario it shares nothing with.
  const complete = recorded.length === OPERATION_NAMES.length;
  const tries = [
    ...candidates.filter((c) => c.same.length).map(extend),
    ...(complete ? [] : candidates.filter((c) => !c.same.length).map(extend)),
    own,
  ];
  let first: Pick<ScenarioFromRecordings, 'file' | 'problems'> | undefined;
  for (const file of tries) {
    const problems = problemsOf(name, file, shipped);
    if (!problems.length) return { file, problems };
    first ??= { file, problems };
  }
  return first!;
}

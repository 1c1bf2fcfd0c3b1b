/**
 * The start-up bundle: one JSON file holding one device's start-up as it happened (every request,
 * redacted, and the exact answer it got, the faults and waits planned, the scenarios that answered,
 * the clock, the fuzz cases, verify's verdict). Its shape, version `mockvideo-bundle/1`. Reading a
 * file back with zod is `bundle-schema.ts`, which the any-runtime entry never loads. Any runtime.
 * @module
 */
import type { ClockView } from '../clock/clock.js';
import type { OperationName } from '../contract/core.js';
import type { FaultKind } from '../faults/fault.js';
import type { Finding } from '../findings/index.js';
import type { RawPair } from '../normalise/index.js';
import type { RuleResult } from '../verify/verify.js';

/** The version of the bundle format a file says in its `format` field; another one is refused on load. */
export const BUNDLE_FORMAT = 'mockvideo-bundle/1';

/**
 * The answer a request got, as the client got it: `status`, `headers` (lower-case names, secrets
 * redacted; framing headers such as `content-length` left out, the sender adds them) and the exact
 * body: `body`, its text when the bytes are UTF-8, else `bodyBase64`.
 */
export interface BundleAnswer {
  status: number;
  headers: Record<string, string>;
  body?: string;
  bodyBase64?: string;
}

/** One request of the start-up and what it got, in the order the requests arrived. */
export interface BundleExchange {
  /** Its id in the journal of the server it came from. */
  id: number;
  /** When it arrived (ISO 8601). */
  time: string;
  /** Milliseconds after the start-up's first request arrived. */
  atMs: number;
  /** How long the answer took, in milliseconds (for a drop or a client gone: until the connection ended). */
  durationMs: number;
  operation: OperationName;
  /**
   * The request as sent: its query pairs in order (percent-encoding as sent), the token written
   * `<SERVICE_TOKEN>`, identifiers (`_sdevid`, `_anoyid`, …) `<REDACTED>`, credential headers and
   * secret cookies `<REDACTED>`, as recordings are (see `redactExchange`).
   */
  request: { method: string; path: string; query: RawPair[]; headers: Record<string, string> };
  /** The answer sent, or `null` when none was: a `reset`, a `hang`, or a client that went away first. */
  answer: BundleAnswer | null;
  /** The fault the routes planned for it (`delay`, `status`, …, `reset`, `hang`), or `null`. */
  fault: FaultKind | null;
  /** The wait planned before the answer or the drop, in milliseconds (a `delay` fault, a stub's latency, a hang). */
  delayMs: number;
  /** The scenario that answered, or `null`. */
  scenario: string | null;
  /** How a replay matched (`exact`, `nearest`, `fallback`, `bundle`, …), or `null`. */
  match: string | null;
  /** The recording that answered, in replay. */
  recording?: string;
  /** Which step of a sequence answered (`2/3`). */
  step?: string;
  /** Under `serve --fuzz`: the case of the generated answer (`42:meta/plugin:3`, see docs/fuzz.md). */
  fuzz?: string;
  /** The request's contract findings. */
  findings: Finding[];
}

/** A scenario that answered a request of the start-up, and the scenarios it extends (nearest first). */
export interface BundleScenario {
  name: string;
  description: string;
  extends: string[];
}

/** Verify's verdict on the start-up (see `StartUpVerdict`), the device written `<REDACTED>`. */
export interface BundleVerdict {
  /** The start-up's id on its server (the journal id of its first request). */
  id: number;
  /** `<REDACTED>`, or `(no _sdevid)`. */
  device: string;
  /** The journal ids of its requests, in order of arrival. */
  ids: number[];
  /** First arrival and last answer's end, ISO 8601. */
  start: string;
  end: string;
  /** False for a burst of only `localplay/recomm`. */
  startUp: boolean;
  ok: boolean;
  rules: RuleResult[];
  /** Under `serve --fuzz`, for a start-up that broke a rule: the case of the last generated answer. */
  suspect?: string;
}

/** The run of `serve --fuzz` the answers came from (see `FuzzReport`), when it was one. */
export interface BundleFuzz {
  seed: number;
  beyondObserved: boolean;
  integers: number;
  perDevice: boolean;
  fixedCase: string | null;
  /** The cases of the start-up's generated answers, in order of arrival. */
  cases: string[];
}

/** One device's start-up as it happened: see docs/bundles.md. */
export interface Bundle {
  format: typeof BUNDLE_FORMAT;
  /** The version of mockvideo that wrote it. */
  mockvideo: string;
  /** When it was written (ISO 8601). */
  createdAt: string;
  /** The server it came from: its mode, the scenario it served to requests that picked none, its `--state`. */
  server: { mode: string; activeScenario: string; state: string };
  verdict: BundleVerdict;
  /** Every scenario that answered a request of it, then the server's active one, each with its `extends` chain. */
  scenarios: BundleScenario[];
  /** The server's clock when the bundle was written (`GET /__mockvideo/clock`). */
  clock: ClockView;
  fuzz: BundleFuzz | null;
  exchanges: BundleExchange[];
}

/** The name of a bundle's exchange `index` (the journal's `recording`, near-miss reports): its JSON path in the file, `exchanges[3]`. */
export const exchangeName = (index: number): string => `exchanges[${index}]`;

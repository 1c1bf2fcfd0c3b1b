import { Clock, type ClockSetting } from '../clock/clock.js';
import { FaultBoard, type FaultPlan } from '../faults/board.js';
import { ScenarioResponder } from '../routes/responder.js';
import type { LatencySetting } from '../latency/latency.js';
import { ClientStates, type StateScope } from '../state/client-state.js';
import { DeviceScenarios, steerableClient, type SteeredDevice } from '../state/device-scenarios.js';
import { MockvideoError } from '../errors.js';
import type { DeviceUrl } from './listen/addresses.js';
import { DEFAULT_JOURNAL_SIZE, Journal } from '../journal/journal.js';
import { DEFAULT_POLICY, type NormalisationPolicy } from '../normalise/policy.js';
import type { ScenarioCatalog } from '../scenarios/catalog.js';
import type { FuzzAnswers } from '../routes/fuzz.js';

/** What a running mockvideo server does. */
type ServerMode = 'serve' | 'replay' | 'record';

/**
 * The live state of one server, shared by the handlers, the journal and the admin API. `active`
 * is the scenario answering clients that do not pick one; the admin API changes it.
 */
export interface ServerContext {
  mode: ServerMode;
  /** The scenarios served: the responder's (a reload of `serve --watch` replaces them there). */
  readonly catalog: ScenarioCatalog;
  active: { scenario: string };
  /**
   * Whether a scenario answers devices here: in `serve`, in `replay` with `--fallback-scenario`
   * (its misses), never in `record`. Only then can a device be given a scenario of its own.
   */
  scenariosAnswer: boolean;
  /** The devices given a scenario of their own (`--device-scenario`, `PUT /devices/SDEVID/scenario`): they answer from it instead of `active`. */
  deviceScenarios: DeviceScenarios;
  responder: ScenarioResponder;
  journal: Journal;
  faults: FaultBoard;
  /** Secrets redacted in the journal (and what else the policy says). */
  policy: NormalisationPolicy;
  /** Answer requests with contract findings with 400 instead of serving them. */
  strictRequests: boolean;
  /** When set, mutating admin calls from other hosts must send `Authorization: Bearer <token>`. */
  adminToken?: string;
  /** Unix time in milliseconds when the server started. */
  startedAt: number;
  /** Counts reloads of the scenario files (1 at start): which version of them is live. */
  catalogVersion: number;
  /** Mode details for people: the upstream, the recording folder. */
  details: Record<string, string>;
  /** How devices reach this server (LAN, emulator, USB), once it listens; `GET /health` lists them for the dashboard. */
  deviceUrls?: DeviceUrl[];
  /** The generated answers of `serve --fuzz` (`GET /__mockvideo/fuzz` reports them), when fuzzing. */
  fuzz?: FuzzAnswers;
  /**
   * Told of each change made through the admin API or the dashboard, one line each (`scenario
   * "gallery" now answers …`, a fault planned or cleared, a device named): `serve` and `replay`
   * print them. Unset: nobody is told.
   */
  onAdminChange?: (line: string) => void;
  /** Aborted when the server starts to shut down: long-lived answers (the dashboard's event stream) end then, instead of holding the shutdown up. */
  closing: AbortController;
}

/**
 * The settings of the live state that `serve` and `replay` share, each set by one flag (declared in
 * `src/cli/server-options.ts`); unset ones have the defaults named here.
 */
export interface LiveSettings {
  /** `--fault`: faults planned from the start. */
  faults?: readonly FaultPlan[];
  /** `--device-scenario SDEVID=NAME`: devices that answer from a scenario of their own from the start. */
  deviceScenarios?: readonly SteeredDevice[];
  /** `--journal-size`: requests the journal keeps; default {@link DEFAULT_JOURNAL_SIZE}. */
  journalSize?: number;
  /** `--strict-requests`: answer requests with contract findings with 400; default false. */
  strictRequests?: boolean;
  /** `--admin-token`: lets other hosts make admin changes with `Authorization: Bearer <token>`. */
  adminToken?: string;
  /** `--state`: sequences and fault counts per client (default) or for the whole server. */
  state?: StateScope;
  /** `--gap`: the quiet gap that ends a client's burst (its start-up), in milliseconds; default 5000. */
  quietGapMs?: number;
  /** `--clock` / `--clock-offset`; default real time. */
  clock?: ClockSetting;
  /** `--latency`: how recorded latencies are served; default `recorded`. */
  latency?: LatencySetting;
}

/** What {@link createServerContext} needs; the rest has defaults. */
export interface ServerContextOptions extends LiveSettings, Pick<ServerContext, 'mode' | 'catalog'> {
  scenario: string;
  /** See {@link ServerContext.scenariosAnswer}; default: in `serve` only. */
  scenariosAnswer?: boolean;
  policy?: NormalisationPolicy;
  details?: Record<string, string>;
}

/**
 * A fresh server context: the active scenario, an empty journal, the given faults planned, the given
 * devices steered.
 * @throws UnknownScenarioError listing the known names when `scenario` or a device's scenario is not in the catalog.
 * @throws MockvideoError (`MV_NO_SCENARIO_ANSWERS`) for a device's scenario where no scenario answers; (`MV_USAGE`) for a device name that is none; (`MV_TOO_MANY_STEERED`) past `MAX_STEERED_DEVICES`.
 */
export function createServerContext(options: ServerContextOptions): ServerContext {
  const scenario = options.catalog.get(options.scenario).name;
  const scenariosAnswer = options.scenariosAnswer ?? options.mode === 'serve';
  const deviceScenarios = new DeviceScenarios();
  for (const { device, scenario: name } of options.deviceScenarios ?? []) {
    if (!scenariosAnswer)
      throw new MockvideoError(
        'MV_NO_SCENARIO_ANSWERS',
        `--device-scenario ${device}=${name}: no scenario answers this ${options.mode} server. In replay, give the scenario that answers what the recordings do not with --fallback-scenario NAME; a device's own scenario then answers its misses.`,
      );
    deviceScenarios.set(steerableClient(device), options.catalog.get(name).name);
  }
  const faults = new FaultBoard(options.state ?? 'client');
  for (const plan of options.faults ?? []) faults.add(plan);
  const responder = new ScenarioResponder(options.catalog, {
    state: new ClientStates({ scope: options.state, quietGapMs: options.quietGapMs }),
    clock: new Clock(options.clock),
    latency: options.latency,
  });
  return {
    mode: options.mode,
    get catalog() {
      return responder.catalog;
    },
    active: { scenario },
    scenariosAnswer,
    deviceScenarios,
    responder,
    journal: new Journal(options.journalSize ?? DEFAULT_JOURNAL_SIZE),
    faults,
    policy: options.policy ?? DEFAULT_POLICY,
    strictRequests: options.strictRequests ?? false,
    adminToken: options.adminToken,
    startedAt: Date.now(),
    catalogVersion: 1,
    details: options.details ?? {},
    closing: new AbortController(),
  };
}

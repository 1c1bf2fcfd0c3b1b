import type { Options } from 'yargs';
import type { ClockSetting } from '../clock/clock.js';
import { parseDuration, parseMoment } from '../clock/clock.js';
import { parseLatencySetting, type LatencySetting } from '../latency/latency.js';
import { STATE_SCOPES, type StateScope } from '../state/client-state.js';

/** A coerce step that names the flag in the message of a parse error (without the `[mockvideo]` prefix: yargs adds its own). */
function named<T>(flag: string, parse: (text: string) => T) {
  return (value: unknown) => {
    if (value === undefined) return undefined;
    try {
      return parse(String(value));
    } catch (error) {
      throw new Error(`--${flag} ${String(value)}: ${(error as Error).message.replace(/^\[mockvideo\] /, '')}`, {
        cause: error,
      });
    }
  };
}

/** The flags of per-client state, the clock and latency, shared by `serve` and `replay`. */
export const stateOptions = {
  state: {
    choices: STATE_SCOPES,
    default: 'client',
    describe:
      'Sequences and fault counts per client (_sdevid, else _anoyid, else address; a new start-up starts them again) or global (one set for the whole server)',
  },
  gap: {
    default: 5,
    requiresArg: true,
    coerce: named('gap', (text) => {
      const seconds = Number(text);
      if (!(seconds > 0 && seconds <= 86_400)) throw new Error('expected a number of seconds above 0 (at most 86400)');
      return seconds;
    }),
    describe:
      'Seconds of quiet that end a start-up of one device (as "mockvideo verify --gap"); its next start-up starts its sequences again',
  },
  clock: {
    requiresArg: true,
    describe:
      'Freeze the clock at this moment (ISO 8601, e.g. 2026-01-31T12:00:00Z, or Unix seconds): "{now…}" times in scenarios and the _ts check read it',
    coerce: named('clock', parseMoment),
  },
  'clock-offset': {
    requiresArg: true,
    describe: 'Shift the clock by a duration, e.g. -2d, +90m, -1y (365 days)',
    coerce: named('clock-offset', parseDuration),
  },
  latency: {
    requiresArg: true,
    describe:
      'Recorded latencies (recordings, stub "latency"): recorded, none, or a factor (0.5 = twice as fast). Default: none for replay, recorded for serve',
    coerce: named('latency', parseLatencySetting),
  },
} satisfies Record<string, Options>;

/** The parsed values of {@link stateOptions}. */
export interface StateArgs {
  state: StateScope;
  gap: number;
  clock?: number;
  'clock-offset'?: number;
  latency?: LatencySetting;
}

/** The server options of {@link stateOptions}' values (see `ServerContextOptions`). */
export function stateSettings(args: StateArgs): {
  state: StateScope;
  quietGapMs: number;
  clock: ClockSetting;
  latency?: LatencySetting;
} {
  const clock: ClockSetting = {};
  if (args.clock !== undefined) clock.frozenAt = args.clock;
  if (args['clock-offset'] !== undefined) clock.offsetMs = args['clock-offset'];
  return {
    state: args.state,
    quietGapMs: args.gap * 1000,
    clock,
    ...(args.latency !== undefined ? { latency: args.latency } : {}),
  };
}

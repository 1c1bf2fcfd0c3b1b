/**
 * Which start-up `mockvideo bundle` downloads: by id, or the newest one (of a device). Pure, any runtime.
 * @module
 */
import type { StartUpVerdict } from '../verify/start-ups.js';

/** What `mockvideo bundle --device SDEVID --start-up ID|last` asks for. */
export interface StartUpChoice {
  /** The device's `_sdevid`; default any device. */
  device?: string | undefined;
  /** A start-up's `id`, or `last` (the default): the newest start-up (not a recommendation view). */
  startUp?: number | 'last' | undefined;
}

/**
 * The start-up of `startUps` (`GET /__mockvideo/start-ups`, oldest first) that `choice` names, or
 * why none: a one-line reason naming the flag (`--start-up`, `--device`) and what the journal holds.
 * @example chooseStartUp(startUps, { startUp: 'last' }) // { startUp: { id: 7, … } }
 */
export function chooseStartUp(
  startUps: readonly StartUpVerdict[],
  choice: StartUpChoice,
): { startUp: StartUpVerdict } | { problem: string } {
  const { device, startUp = 'last' } = choice;
  const mine = device === undefined ? startUps : startUps.filter((s) => s.device === device);
  if (device !== undefined && !mine.length) {
    const devices = [...new Set(startUps.map((s) => s.device))];
    return {
      problem: `--device ${device}: no start-up of this device in the journal${devices.length ? `; its devices are ${devices.join(', ')}` : ''}.`,
    };
  }
  if (startUp === 'last') {
    const last = mine.filter((s) => s.startUp).at(-1);
    if (last) return { startUp: last };
    return {
      problem: `--start-up last: the journal holds no start-up${device === undefined ? '' : ' of this device'} yet. Start playback in the app, then run this again.`,
    };
  }
  const found = mine.find((s) => s.id === startUp);
  if (found) return { startUp: found };
  return {
    problem: `--start-up ${startUp}: no such start-up in the journal${device === undefined ? '' : ' of this device'}; it holds ${mine.map((s) => s.id).join(', ') || 'none'} (GET /__mockvideo/start-ups lists them).`,
  };
}

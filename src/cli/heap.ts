import { PerformanceObserver } from 'node:perf_hooks';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';

/**
 * For the long-running `serve` and `replay`: V8 grows the heap by 10% over what is live after each
 * full collection, instead of its default (which grows by up to 4× while a server allocates fast).
 * Under load `serve`'s live set stays about 30 MB (scenarios, the journal ring), so the extra full
 * collections cost little, and the process stays near 115 MB instead of about 190 MB; `replay` of
 * 100,000 recordings stays near 200 MB instead of 260–850 MB (see docs/performance-notes.md, "Cold start").
 * Only the command line calls it: it changes the whole process.
 */
export function keepHeapSmall(): void {
  setFlagsFromString('--heap-growing-percent=10');
}

/** The young generation {@link holdYoungGeneration} holds by default, in bytes: two semi-spaces of 4 MiB. */
export const HELD_YOUNG_GENERATION_BYTES = 8 * 1024 * 1024;

/**
 * For `serve` and `replay`, from their start: the young generation (V8's new space, two
 * semi-spaces) grows to `bytes` and stops there.
 *
 * V8 grows it by doubling while a server's in-flight requests survive scavenges, up to 16 MiB per
 * semi-space, and shrinks it to 1 MiB after the process sat idle. Held at 4 MiB per semi-space, a
 * server answers as fast as at 16 MiB (side by side: `serve` 13.9–14.1 against 13.1–14.3 µs of CPU
 * a request) with about 10 MB less RSS, and faster than at 1 MiB, where in-flight requests are
 * promoted (replay of 10 recordings 15.5 against 16.3–19 µs; see docs/performance-notes.md, "The
 * young generation").
 *
 * How: after every garbage collection (a `gc` performance observer), V8's growth factor
 * (`--semi-space-growth-factor`, read whenever the new space would grow) is set to 2 while the new
 * space is smaller than `bytes` and to 1 once it is not (V8 raises a factor below 2 only when it
 * starts, so 1 set later keeps the present size). Nothing here shrinks it: a synchronous load
 * (a folder of 100,000 recordings), during which no observer runs, can leave it larger until V8
 * shrinks it after an idle spell; under load it then grows back to `bytes`. Only the command line
 * calls it: it changes the whole process.
 *
 * @param bytes the new space's size to hold (both semi-spaces), in bytes; default {@link HELD_YOUNG_GENERATION_BYTES}
 */
export function holdYoungGeneration(bytes: number = HELD_YOUNG_GENERATION_BYTES): void {
  let growing: boolean | undefined;
  const steer = (): void => {
    const newSpace = getHeapSpaceStatistics().find((space) => space.space_name === 'new_space');
    if (!newSpace) return;
    const grow = newSpace.space_size < bytes;
    if (grow === growing) return;
    growing = grow;
    setFlagsFromString(`--semi-space-growth-factor=${grow ? 2 : 1}`);
  };
  steer();
  new PerformanceObserver(steer).observe({ entryTypes: ['gc'] });
}

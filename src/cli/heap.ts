import { setFlagsFromString } from 'node:v8';

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

import { setFlagsFromString } from 'node:v8';

/**
 * For the long-running `serve` and `replay`: V8 grows the heap by 10% over what is live after each
 * full collection, instead of its default (which grows by up to 4× while a server allocates fast),
 * and the young generation stays at the size it has when this is called (1 MiB per semi-space at
 * start) instead of growing to 16 MiB per semi-space under load.
 *
 * Under load `serve`'s live set stays about 30 MB (scenarios, the journal ring), so the extra full
 * collections cost little, and the process stays near 115 MB instead of about 190 MB; `replay` of
 * 100,000 recordings stays near 200 MB instead of 260–850 MB (see docs/performance-notes.md, "Cold start").
 * A request's garbage is short-lived, so a small young generation costs few extra scavenges (CPU per
 * request within the noise of a load run), while the two grown semi-spaces held ~30 MB of RSS.
 *
 * The young generation's limit (`--max-semi-space-size`) is fixed when V8 starts; its growth factor is
 * read whenever it would grow, and V8 only rounds a factor below 2 up at start, so 1 set here keeps
 * its present size. Call it after a large load (a folder of recordings), whose garbage is better
 * collected with the young generation grown. Only the command line calls it: it changes the whole process.
 */
export function keepHeapSmall(): void {
  setFlagsFromString('--heap-growing-percent=10');
  setFlagsFromString('--semi-space-growth-factor=1');
}

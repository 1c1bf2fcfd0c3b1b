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

/**
 * For `serve` and `replay`, once they listen: the young generation keeps the size it has now (1–4 MiB
 * per semi-space after a start) instead of growing to 16 MiB per semi-space under load, which held
 * ~30 MB of RSS (after a load run: `serve` 99 → 70 MB, `replay` of 10 recordings 103 → 72 MB). The
 * price is more, shorter scavenges: in side-by-side runs `serve`'s CPU time per request rose by
 * 15–20% (about 20 → 24 µs), still about half of talkback's (issue 22 weighs RSS against talkback's
 * too; docs/performance.md has the figures).
 *
 * The young generation's limit (`--max-semi-space-size`) is fixed when V8 starts; its growth factor
 * is read whenever it would grow, and V8 rounds a factor below 2 up only at start, so 1 set here
 * keeps the present size. Call it after a large load (a folder of recordings), whose garbage is
 * collected faster with the young generation grown. Only the command line calls it: it changes the
 * whole process.
 */
export function keepYoungGenerationSmall(): void {
  setFlagsFromString('--semi-space-growth-factor=1');
}

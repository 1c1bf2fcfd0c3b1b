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
 * For `replay`, once it listens: the young generation keeps the size it has now (1–4 MiB per
 * semi-space after a start) instead of growing to 16 MiB per semi-space under load, which held
 * ~30 MB of RSS (replay of 10 recordings after a load run: 103 → 72 MB).
 *
 * Not for `serve`: there, side by side (4 rounds of 4 s, 50 connections, the same request), it
 * took RSS from 94 to 69 MB but CPU per request from 15 to 21 µs and p99 from 2 to 5 ms, since the
 * in-flight requests of 50 connections survive the more frequent scavenges and are promoted (28
 * full collections in 4 s instead of 2). `serve` is the product QA drives; 25 MB is the cheaper price.
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

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/** The major version of the msw this process loads (2 on the Node 20 leg of `.ci/run`, 3 on the Node 24 leg). */
export const MSW_MAJOR = Number(
  (
    JSON.parse(readFileSync(createRequire(import.meta.url).resolve('msw/package.json'), 'utf8')) as { version: string }
  ).version.split('.')[0],
);

/**
 * The documented "fail on an unmocked request" option of `setupServer().listen()` / `worker.start()`
 * under the running msw: `onUnhandledRequest` in msw 2, `onUnhandledFrame` in msw 3 (msw 3 ignores
 * the old name without a word).
 */
export function unhandledOption(strategy: 'error' | 'warn' | 'bypass'): Record<string, 'error' | 'warn' | 'bypass'> {
  return MSW_MAJOR >= 3 ? { onUnhandledFrame: strategy } : { onUnhandledRequest: strategy };
}

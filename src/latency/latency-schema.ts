import { z } from 'zod';
import { MAX_LATENCY_MS } from './latency.js';

/** The schema of a {@link import('./latency.js').RecordedLatency} in recording files and scenario stubs. */
export const latencySchema = z
  .strictObject({
    headersMs: z
      .number()
      .min(0)
      .max(MAX_LATENCY_MS)
      .describe('Milliseconds from the request until the answer headers arrived.'),
    lastByteMs: z
      .number()
      .min(0)
      .max(MAX_LATENCY_MS)
      .describe('Milliseconds from the request until the last body byte arrived.'),
  })
  .refine((latency) => latency.lastByteMs >= latency.headersMs, {
    message: 'lastByteMs must not be below headersMs',
    path: ['lastByteMs'],
  })
  .describe(
    'How long the real service took to answer (from a recording); replay and serve answer after lastByteMs (see --latency).',
  );

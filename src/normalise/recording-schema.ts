/**
 * Reading recording files: the runtime schema of a recording and {@link parseRecording}. Loads zod,
 * so only the commands that read recordings (validate, import, export) load this module; `replay` only
 * for a file that fails the quick check of `recording-check.ts`.
 * @module
 */
import { z } from 'zod';
import { OPERATION_NAMES } from '../contract/core.js';
import { formatJsonPath } from '../errors.js';
import { latencySchema } from '../latency/latency-schema.js';
import type { Recording } from './recording.js';
import { recordingRules, type RecordingParse } from './recording-rules.js';

const headerMap = z.record(z.string(), z.string());

/** The runtime schema of a recording file. */
export const recordingSchema = z.strictObject({
  operation: z.enum(OPERATION_NAMES),
  matchKey: z.string(),
  recordedAt: z.string().refine((s) => !Number.isNaN(Date.parse(s)), 'expected an ISO 8601 date'),
  request: z.strictObject({
    method: z.string().regex(/^[A-Z]+$/, 'expected an upper-case HTTP method'),
    path: z.string().startsWith('/'),
    query: z.array(z.tuple([z.string(), z.string()])),
    headers: headerMap,
  }),
  response: z.strictObject({
    status: z.number().int().min(100).max(599),
    headers: headerMap,
    body: z.string().optional(),
    bodyBase64: z
      .string()
      .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'expected base64')
      .optional(),
    latency: latencySchema.optional(),
  }),
});

/**
 * Checks a parsed recording file value. Returns the recording, or every problem found (shape, a path
 * that is not the operation's, a body given twice or not at all).
 *
 * @example parseRecording(JSON.parse(text), 'meta-cp/0a1b2c3d4e5f-000.json')
 */
export function parseRecording(value: unknown, file: string): RecordingParse {
  const parsed = recordingSchema.safeParse(value);
  if (!parsed.success) {
    return {
      ok: false,
      problems: parsed.error.issues.map((issue) => ({
        file,
        path: formatJsonPath(issue.path),
        message: issue.message,
      })),
    };
  }
  return recordingRules(parsed.data as Recording, file);
}

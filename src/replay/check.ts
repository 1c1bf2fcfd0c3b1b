import { OPERATIONS, envelopeSchema } from '../contract/index.js';
import { BODILESS_STATUSES } from '../contract/http-wire.js';
import { formatJsonPath, jsonSyntaxProblem } from '../errors.js';
import { recordedBodyBytes, matchKey, type NamedRecording, type NormalisationPolicy } from '../normalise/index.js';

/** One finding of {@link checkRecording}: the recording, its operation, the JSON path in the body and the rule. */
export interface RecordingFinding {
  recording: string;
  operation: string;
  /** JSON path inside the response body (`data[2].md5`), or a field of the file (`matchKey`). */
  path: string;
  rule: string;
}

/** Formats a finding as one line: `meta-cp/…-000.json (meta/cp) at data[0].id: expected string`. */
export function formatFinding(finding: RecordingFinding): string {
  return `${finding.recording} (${finding.operation})${finding.path ? ` at ${finding.path}` : ''}: ${finding.rule}`;
}

/**
 * Checks one recording against the contract: a 2xx body must be JSON, the envelope
 * `{ data, msg, result }` with the operation's `data` schema (every zod issue is one finding); the
 * stored match key must be the one its request gives under `policy` (else the file was edited or
 * recorded under another policy). Bodies of other statuses are not checked: the seed shows no failure
 * body, and a 204 or 205 has none. A finding never quotes the body.
 *
 * @example checkRecording({ name, recording }, DEFAULT_POLICY) // [] when it keeps the contract
 * @see docs/contract.md#envelope and each operation's resource table.
 */
export function checkRecording({ name, recording }: NamedRecording, policy: NormalisationPolicy): RecordingFinding[] {
  const findings: RecordingFinding[] = [];
  const operation = recording.operation;
  const expectedKey = matchKey(recording.request.method, operation, recording.request.query, policy);
  if (recording.matchKey !== expectedKey)
    findings.push({
      recording: name,
      operation,
      path: 'matchKey',
      rule: `is not the key of the stored request (${expectedKey}); re-record it or fix the file`,
    });
  const { status } = recording.response;
  if (status < 200 || status > 299 || BODILESS_STATUSES.includes(status)) return findings;
  const text = new TextDecoder().decode(recordedBodyBytes(recording.response));
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    findings.push({
      recording: name,
      operation,
      path: '',
      rule: `the response body is ${jsonSyntaxProblem(error, text)}`,
    });
    return findings;
  }
  const parsed = envelopeSchema(OPERATIONS[operation].dataSchema).safeParse(body);
  if (!parsed.success) {
    for (const issue of parsed.error.issues)
      findings.push({ recording: name, operation, path: formatJsonPath(issue.path), rule: issue.message });
  }
  return findings;
}

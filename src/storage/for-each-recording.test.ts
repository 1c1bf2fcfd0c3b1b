import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_POLICY, formatRecording, matchKey, type NamedRecording, type Recording } from '../normalise/index.js';
import { parseRecordingQuickly } from '../normalise/recording-check.js';
import { jsonSyntaxProblem } from '../errors.js';
import { forEachRecording } from './read-recordings.js';

const dir = mkdtempSync(join(tmpdir(), 'mockvideo-read-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function recording(region: string, body: string): Recording {
  const query = [['_region', region]] as const;
  return {
    operation: 'meta/cp',
    matchKey: matchKey('GET', 'meta/cp', query, DEFAULT_POLICY),
    recordedAt: '2026-11-23T00:00:00.000Z',
    request: { method: 'GET', path: '/api/g1/meta/cp', query: query.map(([k, v]) => [k, v]), headers: {} },
    response: { status: 200, headers: { 'content-type': 'application/json; charset=utf-8' }, body },
  };
}

/** The problem the loader gives for a file whose text does not parse: where, never the text (see `jsonSyntaxProblem`). */
function jsonProblem(file: string, text: string) {
  try {
    JSON.parse(text);
  } catch (error) {
    return { file, path: '', message: jsonSyntaxProblem(error, text) };
  }
  throw new Error(`${file} parses`);
}

describe('forEachRecording reading files', () => {
  it('reads whole files of every size (one read, or on to the end) and judges a broken file by its whole text', () => {
    mkdirSync(join(dir, 'meta-cp'));
    const small = recording('IN', '{"result":1}');
    // Beyond the 64 KiB read buffer, and beyond 1 MiB (the buffer grows, then is let go).
    const large = recording('DE', `{"data":"${'é'.repeat(40_000)}"}`);
    const huge = recording('FR', `{"data":"${'x'.repeat(1_500_000)}"}`);
    const after = recording('US', '{"result":2}');
    const files: Record<string, string> = {
      'aaaaaaaaaaaa-000.json': formatRecording(small),
      'bbbbbbbbbbbb-000.json': formatRecording(large),
      'cccccccccccc-000.json': formatRecording(huge),
      // A whole recording followed by more text: not valid JSON, as before.
      'dddddddddddd-000.json': `${formatRecording(small)}{"more":1}`,
      'eeeeeeeeeeee-000.json': '',
      'ffffffffffff-000.json': formatRecording(small).slice(0, 100),
      // Broken beyond the first 64 KiB.
      '111111111111-000.json': formatRecording(recording('IT', `{"data":"${'x'.repeat(100_000)}"}`)).slice(0, 90_000),
      'ffffffffffff-001.json': formatRecording(after),
    };
    for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, 'meta-cp', file), text);
    mkdirSync(join(dir, 'meta-cp', '222222222222-000.json'));

    const seen: NamedRecording[] = [];
    const problems = forEachRecording(dir, (named) => seen.push(named), parseRecordingQuickly);

    expect(seen.map((s) => s.name)).toEqual([
      'meta-cp/aaaaaaaaaaaa-000.json',
      'meta-cp/bbbbbbbbbbbb-000.json',
      'meta-cp/cccccccccccc-000.json',
      'meta-cp/ffffffffffff-001.json',
    ]);
    expect(seen.map((s) => s.recording)).toEqual([small, large, huge, after]);
    expect(problems).toEqual([
      jsonProblem('meta-cp/111111111111-000.json', files['111111111111-000.json']!),
      {
        file: 'meta-cp/222222222222-000.json',
        path: '',
        message: 'not a regular file (a folder); only regular files are read',
      },
      jsonProblem('meta-cp/dddddddddddd-000.json', files['dddddddddddd-000.json']!),
      jsonProblem('meta-cp/eeeeeeeeeeee-000.json', ''),
      jsonProblem('meta-cp/ffffffffffff-000.json', files['ffffffffffff-000.json']!),
    ]);
    // Every problem is one line.
    for (const problem of problems) expect(problem.message).not.toContain('\n');
  });
});

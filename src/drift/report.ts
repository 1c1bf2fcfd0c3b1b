/**
 * A drift report for people (a table per compared request) and for tools (JSON). Pure.
 * @module
 */
import type { DriftRow } from './compare.js';
import type { DriftReport } from './drift.js';
import { textTable } from '../text-table.js';

/**
 * The report as text: per compared request, a heading (operation and what was compared) and a table
 * of `path  recorded  live  kind`, differences first, then noise; a last line that sums it up.
 *
 * @example formatDriftReport(report) // "meta/cp  meta-cp/0a1b2c3d4e5f-000.json\n  path  recorded  live  kind\n  data[].rank  —  number  added\n..."
 */
export function formatDriftReport(report: DriftReport): string {
  const lines: string[] = [];
  for (const target of report.targets) {
    lines.push(`${target.operation}  ${target.source}`);
    if (target.error) {
      lines.push(`  the live service gave no answer: ${target.error}`, '');
      continue;
    }
    const rows: DriftRow[] = [...target.differences, ...target.noise];
    if (rows.length === 0) lines.push('  same structure');
    else
      lines.push(
        ...textTable([
          ['path', 'recorded', 'live', 'kind'],
          ...rows.map((r) => [r.path, r.recorded || '·', r.live, r.kind]),
        ]).map((line) => `  ${line}`),
      );
    lines.push('');
  }
  for (const note of report.notes) lines.push(`note: ${note}`);
  const differences = report.targets.reduce((n, t) => n + t.differences.length, 0);
  const noise = report.targets.reduce((n, t) => n + t.noise.length, 0);
  const failed = report.targets.filter((t) => t.error).length;
  const drifted = report.targets.filter((t) => t.differences.length).length;
  const compared = `${report.targets.length} request(s) compared${report.mode === 'live' ? ' with the live service' : ''}`;
  lines.push(
    report.ok
      ? `No drift: ${compared}; ${noise} volatile place(s) reported as noise.`
      : `Drift: ${differences} difference(s) in ${drifted} of ${compared}${failed ? `, ${failed} unanswered` : ''}; ${noise} volatile place(s) reported as noise.`,
  );
  return `${lines.join('\n')}\n`;
}

/** The report as JSON text for tools: `{ ok, mode, targets: [{ operation, source, differences, noise, error? }], notes }`. */
export function driftReportJson(report: DriftReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}

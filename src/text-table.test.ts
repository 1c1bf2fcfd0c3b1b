import { readFileSync } from 'node:fs';
import stringWidth from 'fast-string-width';
import { describe, expect, it } from 'vitest';
import { formatDriftReport } from './drift/report.js';
import { formatNearMissReport } from './replay/near-miss.js';
import { deviceUrls, formatDeviceUrls } from './server/listen/addresses.js';
import { textTable } from './text-table.js';

/** The provider names and video titles of the shipped `i18n-stress` scenario: CJK, emoji sequences, flags, RTL, Devanagari. */
const I18N = (() => {
  const file = JSON.parse(readFileSync(new URL('../scenarios/i18n-stress.json', import.meta.url), 'utf8')) as {
    operations: Record<string, { data: Array<{ name?: string; title?: string }> }>;
  };
  const names = file.operations['meta/cp']!.data.map((p) => p.name!);
  const titles = file.operations['localplay/recomm']!.data.map((v) => v.title!);
  return [...names, ...titles.filter((t) => stringWidth(t) < 60)];
})();

/** The display column (terminal cells) at which each `separator` of `line` starts. */
const columnsOf = (line: string, separator: string) =>
  line
    .split(separator)
    .slice(0, -1)
    .map((_cell, i, cells) => stringWidth(cells.slice(0, i + 1).join(separator)));

describe('text tables', () => {
  it('measure terminal cells, not UTF-16 units: a CJK character and an emoji sequence take two', () => {
    expect(stringWidth('キッズゾーン 🧸')).toBe(15);
    expect(stringWidth('NewsLine 📰🇮🇳')).toBe(13);
    expect(I18N.some((s) => stringWidth(s) !== s.length)).toBe(true);
  });

  it('line up the column after the titles of i18n-stress: every row as wide as the others', () => {
    const lines = textTable(I18N.map((s) => [s, 'end']));
    expect(new Set(lines.map((line) => stringWidth(line))).size).toBe(1);
  });

  it('align the near-miss table when recorded and requested values are CJK and emoji', () => {
    const text = formatNearMissReport({
      error: 'no match',
      method: 'GET',
      operation: 'meta/cp',
      matchKey: 'meta/cp?q',
      nearMisses: [
        {
          recording: 'meta-cp/0a1b2c3d4e5f-000.json',
          differences: I18N.slice(0, 6).map((value, i) => ({ parameter: `p${i}`, recorded: value, requested: 'x' })),
        },
      ],
      ignored: [],
    });
    const table = text.split('\n').filter((line) => line.includes(' | '));
    expect(table).toHaveLength(7);
    expect(new Set(table.map((line) => columnsOf(line, ' | ').join()))).toHaveLength(1);
  });

  it('align the drift table when paths hold CJK and emoji', () => {
    const text = formatDriftReport({
      ok: false,
      mode: 'offline',
      notes: [],
      targets: [
        {
          operation: 'meta/cp',
          source: 'a',
          differences: I18N.map((path) => ({ path, recorded: 'string', live: 'number', kind: 'type' as const })),
          noise: [],
        },
      ],
    });
    const table = text.split('\n').filter((line) => line.endsWith(' type') || line.endsWith(' kind'));
    expect(table).toHaveLength(I18N.length + 1);
    expect(new Set(table.map((line) => stringWidth(line)))).toHaveProperty('size', 1);
  });

  it('align the listening addresses when an interface name is not ASCII (Windows names them in the user language)', () => {
    const lines = formatDeviceUrls(deviceUrls('0.0.0.0', 8787, 'http', [['イーサネット', '192.168.1.20']]));
    expect(new Set(lines.map((line) => stringWidth(line.split('http')[0]!)))).toHaveProperty('size', 1);
  });
});

import stringWidth from 'fast-string-width';

/**
 * Rows of cells as lines of text whose columns line up on a terminal: every cell but the last of
 * its row is padded to the display width of its column's widest cell, cells are joined by
 * `separator`, trailing spaces are trimmed. Widths are terminal columns, not UTF-16 units (library
 * `fast-string-width`: a CJK character or an emoji sequence takes two, a combining mark none), so
 * the titles and names of `i18n-stress` stay aligned. Runs in any runtime.
 *
 * @example textTable([['name', 'kind'], ['キッズ', 'added']]) // ['name    kind', 'キッズ  added']
 */
export function textTable(rows: readonly (readonly string[])[], separator = '  '): string[] {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, stringWidth(cell))));
  return rows.map((row) =>
    row
      .map((cell, i) => (i === row.length - 1 ? cell : cell + ' '.repeat(widths[i]! - stringWidth(cell))))
      .join(separator)
      .trimEnd(),
  );
}

// The fenced code blocks of a Markdown file, with the marker comment that may precede each:
//   <!-- consumer: <project>/<file> -->   the block is that file of a consumer project (test/package/pack.test.ts)
//   <!-- snippet: no-check -->           a fragment or a config for a tool the tests do not install: not type-checked
//   <!-- snippet: no-run -->             type-checked but not run (it needs a server, a device, a network)
//   <!-- snippet: fails -->              a whole vitest file that must fail, on an `expect` (a test that catches a bug)
//   <!-- file: test/bundles/x.json -->   the block is that file, written next to the code blocks for them to read
//   <!-- msw: 3 -->                      the block is for that msw major only (checked and run on the leg of .ci/run
//                                         that has it); may stand with one of the others, on the line before it
import { readFileSync } from 'node:fs';

/** One fenced block: its language (the info string's first word), its text and where it starts. */
export interface MarkdownBlock {
  /** The Markdown file, as given. */
  file: string;
  /** 1-based line of the opening fence. */
  line: number;
  /** `ts`, `js`, `sh`, `json`, … (empty when the fence names none). */
  lang: string;
  code: string;
  /** `commonjs/jest.config.js` from `<!-- consumer: commonjs/jest.config.js -->`. */
  consumer?: string;
  /** From `<!-- snippet: no-check -->`, `<!-- snippet: no-run -->` or `<!-- snippet: fails -->`. */
  snippet?: 'no-check' | 'no-run' | 'fails';
  /** `test/bundles/x.json` from `<!-- file: test/bundles/x.json -->`: a data file the code blocks read. */
  path?: string;
  /** From `<!-- msw: 2 -->` or `<!-- msw: 3 -->`: the msw major the block is written for; none: any. */
  msw?: number;
}

const MARKER = /^<!--\s*(consumer|snippet|msw|file):\s*(\S+)\s*-->$/;

/** The fenced code blocks of `file` (``` or ~~~ fences), in order. */
export function markdownBlocks(file: string): MarkdownBlock[] {
  const lines = readFileSync(file, 'utf8').split(/\r?\n/);
  const blocks: MarkdownBlock[] = [];
  let marker: { kind: string; value: string } | undefined;
  let major: number | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const comment = MARKER.exec(line.trim());
    if (comment) {
      if (comment[1] === 'msw') major = Number(comment[2]);
      else marker = { kind: comment[1]!, value: comment[2]! };
      continue;
    }
    const fence = /^(\s*)(`{3,}|~{3,})\s*([\w+-]*)/.exec(line);
    if (!fence) {
      if (line.trim() !== '') [marker, major] = [undefined, undefined];
      continue;
    }
    const [, indent, ticks, lang] = fence;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length && !lines[j]!.trim().startsWith(ticks!); j++) body.push(lines[j]!.slice(indent!.length));
    const block: MarkdownBlock = { file, line: i + 1, lang: lang!.toLowerCase(), code: `${body.join('\n')}\n` };
    if (marker?.kind === 'consumer') block.consumer = marker.value;
    if (
      marker?.kind === 'snippet' &&
      (marker.value === 'no-check' || marker.value === 'no-run' || marker.value === 'fails')
    )
      block.snippet = marker.value;
    if (marker?.kind === 'file') block.path = marker.value;
    if (major !== undefined) block.msw = major;
    blocks.push(block);
    [marker, major] = [undefined, undefined];
    i = j;
  }
  return blocks;
}

/**
 * Writes the command reference (`docs/commands.md`, which the README links to) from the real
 * `--help` output of every command, between the markers `<!-- reference:start -->` and
 * `<!-- reference:end -->`, so the two never disagree.
 *
 *   npm run build && npx tsx scripts/readme-reference.ts
 *
 * test/readme-reference.test.ts fails when docs/commands.md is out of date.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const COMMANDS = [
  'serve',
  'replay',
  'bundle',
  'record',
  'import',
  'export',
  'validate',
  'scenarios',
  'new-scenario',
  'verify',
  'drift',
  'scenario from-recordings',
  'fuzz',
  'config',
] as const;
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const START = '<!-- reference:start -->';
const END = '<!-- reference:end -->';
/** The file that holds the generated reference, relative to the repository root. */
export const REFERENCE_FILE = 'docs/commands.md';

/** The `--help` text of one command (`'scenario from-recordings'`: its words; the whole CLI for `''`), as a user sees it in an 100-column terminal. */
export function helpOf(command: string): string {
  return execFileSync(process.execPath, ['bin/mockvideo.js', ...(command ? command.split(' ') : []), '--help'], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  }).trimEnd();
}

/** The generated reference section (without the markers). */
export function reference(): string {
  const parts = COMMANDS.map((command) => `### mockvideo ${command}\n\n\`\`\`text\n${helpOf(command)}\n\`\`\``);
  return `\n_Generated from \`--help\` by \`scripts/readme-reference.ts\`; a test keeps it in step._\n\n${parts.join('\n\n')}\n`;
}

/** `text` (the content of {@link REFERENCE_FILE}) with the reference section replaced. */
export function withReference(text: string): string {
  const start = text.indexOf(START);
  const end = text.indexOf(END);
  if (start < 0 || end < start) throw new Error(`${REFERENCE_FILE} needs the markers ${START} and ${END}`);
  return `${text.slice(0, start + START.length)}${reference()}${text.slice(end)}`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const path = `${ROOT}${REFERENCE_FILE}`;
  writeFileSync(path, withReference(readFileSync(path, 'utf8')));
  process.stdout.write(`${REFERENCE_FILE} command reference updated\n`);
}

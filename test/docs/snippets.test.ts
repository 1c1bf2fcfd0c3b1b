// Every ```ts / ```js block of README.md and docs/*.md as a user would paste it: type-checked with
// tsc (strict, once with nodenext and once with bundler resolution, `mockvideo` resolved through this
// package's own exports map to dist/; CommonJS blocks, using `require`, with nodenext only: node16
// refuses to `require` msw 3, an ES module, where nodenext follows Node 22.12+), and the blocks that are whole vitest files run with vitest.
// Opt-outs, as an HTML comment on the line before a block (see test/support/markdown-blocks.ts):
// `<!-- snippet: no-check -->` for fragments and configs of tools not installed here,
// `<!-- snippet: no-run -->` for files that type-check but need a device, a server or a network,
// `<!-- snippet: fails -->` for a whole vitest file that must fail on an `expect` (a test that
// catches the bug it is about). A block of any language marked `<!-- file: PATH -->` is written to
// PATH beside the snippets, for them to read (a bundle a test loads).
// Blocks marked `<!-- consumer: … -->` (docs/jest.md) are type-checked here and run by
// test/package/pack.test.ts in the projects they belong to. Blocks marked `<!-- msw: N -->` are
// checked and run only under that msw major (the Node 20 leg of .ci/run has msw 2, the Node 24 leg
// msw 3). Needs the build (`npm run build`).
import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markdownBlocks, type MarkdownBlock } from '../support/markdown-blocks.js';
import { MSW_MAJOR } from '../support/msw-major.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** Inside the repository, so `mockvideo` resolves to this package (self-reference) and node_modules are found. */
const WORK = join(ROOT, 'test-output/snippets');
const DOCS = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`),
];

const CODE = new Set(['ts', 'typescript', 'js', 'javascript', 'mjs', 'cjs']);

/** How a failed `expect` begins (an assertion, or `.resolves`/`.rejects` that got the other outcome): not a typo's ReferenceError. */
const EXPECT_FAILURE = /^(AssertionError|Error: promise (rejected|resolved) )/;

/** A block written out as a file: `<doc>-L<line>.<ext>`, CommonJS when it uses `require`/`module.exports`. */
interface Snippet {
  block: MarkdownBlock;
  file: string;
  /** A whole vitest file: imports vitest and declares tests. */
  runnable: boolean;
}

function snippetOf(block: MarkdownBlock): Snippet {
  const commonjs = /\brequire\(|\bmodule\.exports\b/.test(block.code);
  const typescript = block.lang === 'ts' || block.lang === 'typescript';
  const ext = typescript ? (commonjs ? 'cts' : 'mts') : commonjs ? 'cjs' : 'mjs';
  const file = `${block.file.replace(/[^\w]+/g, '-')}-L${block.line}.test.${ext}`;
  const runnable =
    !block.consumer &&
    block.snippet !== 'no-run' &&
    /from ['"]vitest['"]/.test(block.code) &&
    /\b(it|test)(\.\w+)?\(/.test(block.code);
  return { block, file, runnable };
}

function run(args: string[], cwd: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      args,
      {
        cwd,
        timeout: 120_000,
        maxBuffer: 16 * 1024 * 1024,
        env: {
          ...process.env,
          NO_COLOR: '1',
          VITEST: undefined,
          VITEST_WORKER_ID: undefined,
          VITEST_POOL_ID: undefined,
        },
      },
      (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, output: `${stdout}${stderr}` });
      },
    );
  });
}

const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');
const RESOLUTIONS = {
  nodenext: { module: 'nodenext', moduleResolution: 'nodenext' },
  bundler: { module: 'esnext', moduleResolution: 'bundler' },
} as const;

/** `file(line,col): error TSxxxx: message` lines of tsc, by snippet file. */
function errorsByFile(output: string): Map<string, string[]> {
  const errors = new Map<string, string[]>();
  for (const line of output.split('\n')) {
    const match = /^([^(\s]+)\((\d+),\d+\): error (TS\d+: .*)$/.exec(line.trim());
    if (!match) continue;
    const file = match[1]!.split('/').pop()!;
    errors.set(file, [...(errors.get(file) ?? []), `line ${match[2]}: ${match[3]}`]);
  }
  return errors;
}

describe.skipIf(!existsSync(join(ROOT, 'dist/index.d.ts')))('code blocks of the documentation', () => {
  const snippets = DOCS.flatMap((doc) => markdownBlocks(join(ROOT, doc)).map((block) => ({ ...block, file: doc })))
    .filter(
      (block) =>
        CODE.has(block.lang) && block.snippet !== 'no-check' && (block.msw === undefined || block.msw === MSW_MAJOR),
    )
    .map(snippetOf);
  const typeErrors: Record<keyof typeof RESOLUTIONS, Map<string, string[]>> = {
    nodenext: new Map(),
    bundler: new Map(),
  };
  let vitestOutput = '';
  let vitestFailures = new Map<string, string>();
  /** Files whose tests ran and failed on `expect` only (no load error, no other error): what a `fails` block must do. */
  let failedOnAssertions = new Set<string>();
  const dataFiles = DOCS.flatMap((doc) => markdownBlocks(join(ROOT, doc)).filter((block) => block.path));

  beforeAll(async () => {
    await rm(WORK, { recursive: true, force: true });
    await mkdir(WORK, { recursive: true });
    for (const snippet of snippets) await writeFile(join(WORK, snippet.file), snippet.block.code);
    for (const data of dataFiles) {
      await mkdir(dirname(join(WORK, data.path!)), { recursive: true });
      await writeFile(join(WORK, data.path!), data.code);
    }
    for (const [name, options] of Object.entries(RESOLUTIONS) as Array<
      [keyof typeof RESOLUTIONS, (typeof RESOLUTIONS)[keyof typeof RESOLUTIONS]]
    >) {
      const tsconfig = {
        compilerOptions: {
          ...options,
          target: 'ES2022',
          lib: ['ES2022', 'DOM', 'DOM.Iterable'],
          types: ['node'],
          strict: true,
          noEmit: true,
          allowJs: true,
          checkJs: true,
          skipLibCheck: true,
          esModuleInterop: true,
        },
        // Bundler resolution is for code a bundler reads (import syntax); CommonJS blocks are checked as Node reads them (nodenext).
        files: snippets.filter((s) => name === 'nodenext' || /\.m[jt]s$/.test(s.file)).map((s) => s.file),
      };
      await writeFile(join(WORK, `tsconfig.${name}.json`), JSON.stringify(tsconfig, null, 2));
      typeErrors[name] = errorsByFile((await run([TSC, '-p', `tsconfig.${name}.json`], WORK)).output);
    }
    const runnable = snippets.filter((s) => s.runnable);
    if (runnable.length) {
      await writeFile(
        join(WORK, 'vitest.config.mjs'),
        `export default { test: { include: ${JSON.stringify(runnable.map((s) => s.file))}, testTimeout: 30000 } };\n`,
      );
      const result = await run(
        [join(ROOT, 'node_modules/vitest/vitest.mjs'), 'run', '--root', WORK, '--reporter=json'],
        WORK,
      );
      vitestOutput = result.output;
      const json = result.output.slice(result.output.indexOf('{'));
      try {
        const report = JSON.parse(json) as {
          testResults: Array<{
            name: string;
            status: string;
            message: string;
            assertionResults: Array<{ status: string; failureMessages: string[] }>;
          }>;
        };
        failedOnAssertions = new Set(
          report.testResults
            .filter(
              (r) =>
                r.status === 'failed' &&
                !r.message &&
                r.assertionResults.length > 0 &&
                r.assertionResults.every(
                  (a) => a.status !== 'failed' || EXPECT_FAILURE.test(a.failureMessages[0] ?? ''),
                ),
            )
            .map((r) => relative(WORK, r.name)),
        );
        vitestFailures = new Map(
          report.testResults
            .filter((r) => r.status !== 'passed')
            .map((r) => [
              relative(WORK, r.name),
              r.message ||
                r.assertionResults
                  .flatMap((a) => a.failureMessages)
                  .join('\n')
                  .split('\n')
                  .slice(0, 3)
                  .join(' '),
            ]),
        );
      } catch {
        vitestFailures = new Map(
          runnable.map((s) => [s.file, `vitest gave no report:\n${vitestOutput.slice(0, 2000)}`]),
        );
      }
    }
  }, 180_000);

  afterAll(async () => {
    await rm(WORK, { recursive: true, force: true });
  });

  it.each(DOCS)('%s: every ts/js block type-checks (strict; nodenext and bundler resolution)', (doc) => {
    const failing = snippets
      .filter((s) => s.block.file === doc)
      .flatMap((s) =>
        (Object.keys(RESOLUTIONS) as Array<keyof typeof RESOLUTIONS>).flatMap((name) =>
          (typeErrors[name].get(s.file) ?? []).map((error) => `${doc}:${s.block.line} (${name}) ${error}`),
        ),
      );
    expect(
      failing,
      'blocks that do not compile as shown; fix the block or mark it <!-- snippet: no-check --> if it is a fragment',
    ).toEqual([]);
  });

  it.each(DOCS)('%s: every block that is a whole vitest file passes (a `fails` one fails on its expect)', (doc) => {
    const failing = snippets
      .filter((s) => s.block.file === doc && s.runnable && s.block.snippet !== 'fails' && vitestFailures.has(s.file))
      .map((s) => `${doc}:${s.block.line} ${vitestFailures.get(s.file)}`);
    expect(failing, 'blocks that fail when run; fix the block or mark it <!-- snippet: no-run -->').toEqual([]);
    const passing = snippets
      .filter(
        (s) => s.block.file === doc && s.runnable && s.block.snippet === 'fails' && !failedOnAssertions.has(s.file),
      )
      .map((s) => `${doc}:${s.block.line} ${vitestFailures.get(s.file) ?? 'passed'}`);
    expect(passing, 'blocks marked <!-- snippet: fails --> that did not fail on an expect').toEqual([]);
  });

  it('finds the blocks: docs/jest.md has type-checked blocks', () => {
    // Four configs on either leg; the three test files, written for msw 3, on the msw 3 leg.
    expect(snippets.filter((s) => s.block.file === 'docs/jest.md').length).toBeGreaterThanOrEqual(
      MSW_MAJOR >= 3 ? 7 : 4,
    );
  });
});

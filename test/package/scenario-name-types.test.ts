// What a test author's editor and tsc say about `createHandlers({ scenario })` (issue 43): the
// TypeScript language service over a consumer file that imports `mockvideo` by package name, from
// the build (dist/*.d.ts for an ES module, dist/cjs/*.d.ts for CommonJS). A misspelled shipped name
// must fail with an error that names the shipped scenarios (and TypeScript's "Did you mean"), not
// with "Property 'catalog' is missing"; the editor must complete the names; a catalog of one's own
// takes any string.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
// Inside the package, so `mockvideo` resolves through its own exports map (self-reference), as from node_modules.
const DIR = join(ROOT, 'test-output', `scenario-name-types-${process.pid}`);

const CONSUMER = `import { createHandlers, shippedCatalog } from 'mockvideo';
createHandlers({ scenario: 'galery' });
createHandlers({ scenario: 'gallery', baseUrl: 'https://api.example.com' });
createHandlers({ scenario: 'mine', catalog: shippedCatalog() });
createHandlers({ scenario: '' });
`;

/** The language service over the one file `name` holding {@link CONSUMER}, as a project on `module: nodenext` checks it. */
function serviceFor(name: string) {
  const file = join(DIR, name);
  writeFileSync(file, CONSUMER);
  const options: ts.CompilerOptions = {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    skipLibCheck: true,
    noEmit: true,
  };
  const host: ts.LanguageServiceHost = {
    getScriptFileNames: () => [file],
    getScriptVersion: () => '1',
    getScriptSnapshot: (path) =>
      existsSync(path) ? ts.ScriptSnapshot.fromString(readFileSync(path, 'utf8')) : undefined,
    getCurrentDirectory: () => DIR,
    getCompilationSettings: () => options,
    getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
    fileExists: ts.sys.fileExists,
    readFile: ts.sys.readFile,
    readDirectory: ts.sys.readDirectory,
    directoryExists: ts.sys.directoryExists,
    getDirectories: ts.sys.getDirectories,
    realpath: ts.sys.realpath!,
  };
  const service = ts.createLanguageService(host, ts.createDocumentRegistry());
  return {
    /** `line: TSnnnn message` of each error, lines 1-based. */
    errors: () =>
      service.getSemanticDiagnostics(file).map((d) => {
        const line = d.file!.getLineAndCharacterOfPosition(d.start!).line + 1;
        return `${line}: TS${d.code} ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
      }),
    /** The completions inside the empty string on the last line. */
    completions: () =>
      (service.getCompletionsAtPosition(file, CONSUMER.lastIndexOf("''") + 1, {})?.entries ?? []).map((e) => e.name),
  };
}

describe.skipIf(!existsSync(join(ROOT, 'dist/cjs/index.d.ts')))('createHandlers({ scenario }) in an editor', () => {
  beforeAll(() => mkdirSync(DIR, { recursive: true }));
  afterAll(() => rmSync(DIR, { recursive: true, force: true }));

  it.each([
    ['an ES module', 'consumer.mts'],
    ['CommonJS', 'consumer.cts'],
  ])('%s: a misspelled name is an error naming the shipped scenarios; the names complete', (_kind, name) => {
    const service = serviceFor(name);
    const errors = service.errors();
    // Line 2 (the misspelling) and line 5 (the empty name the completion test types into); lines 3 and 4 compile.
    expect(errors.map((e) => e.split(':')[0])).toEqual(['2', '5']);
    expect(errors[0]).toContain('TS2820');
    expect(errors[0]).toMatch(
      /Type '"galery"' is not assignable to type '"default" \| "connection-reset" \| .*"gallery" \|/,
    );
    expect(errors[0]).toContain(`Did you mean '"gallery"'?`);
    expect(errors[0]).not.toContain('catalog');
    expect(service.completions()).toEqual(
      expect.arrayContaining(['default', 'gallery', 'non-gallery', 'slow-network']),
    );
  });
});

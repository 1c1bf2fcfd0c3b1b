// What a test author's editor shows on hover over a field of the contract's types (issue 31): the
// TypeScript language service, as an editor runs it, over a small consumer file that imports
// `mockvideo/contract` by package name, from the build (dist/contract/*.d.ts for an ES module,
// dist/cjs/contract/*.d.ts for CommonJS). Each field's docstring must be there, units included.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
// Inside the package, so `mockvideo/contract` resolves through its own exports map (self-reference), as from node_modules.
const DIR = join(ROOT, 'test-output', `contract-hover-${process.pid}`);

const CONSUMER = `import type { ContentProvider, DiversionSet, PluginEntry, RecommendedVideo, Settings } from 'mockvideo/contract';
declare const video: RecommendedVideo;
declare const provider: ContentProvider;
declare const plugin: PluginEntry;
declare const settings: Settings;
declare const diversion: DiversionSet;
export const fields = [video.duration, video.top_left_logo, video.target, provider.cp_link, plugin.updated_at, plugin.params.need_install, plugin.market_sign.nonce, settings.codec_level, diversion.end];
`;

/** The language service over the one file `name` holding {@link CONSUMER}, with the options of a project on `module: nodenext`. */
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
    /** The hover text (signature, documentation and tags such as `@see`) over the `n`th occurrence of `text` in the consumer file, the first by default. */
    hover(text: string, n = 0): string {
      let at = -1;
      for (let i = 0; i <= n; i++) at = CONSUMER.indexOf(text, at + 1);
      const info = service.getQuickInfoAtPosition(file, at + text.length - 1);
      const tags = (info?.tags ?? []).map((tag) => `@${tag.name} ${ts.displayPartsToString(tag.text)}`);
      return [ts.displayPartsToString(info?.displayParts), ts.displayPartsToString(info?.documentation), ...tags].join(
        '\n',
      );
    },
    /** The declaration files the consumer's types come from, relative to the package root. */
    declarationFiles: () =>
      service
        .getProgram()!
        .getSourceFiles()
        .map((f) => f.fileName.slice(ROOT.length))
        .filter((f) => f.startsWith('dist/')),
    errors: () => service.getSemanticDiagnostics(file).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n')),
  };
}

afterAll(() => rmSync(DIR, { recursive: true, force: true }));

describe.skipIf(!existsSync(join(ROOT, 'dist/cjs/contract/index.d.ts')))(
  'hover over a field of mockvideo/contract',
  () => {
    mkdirSync(DIR, { recursive: true });

    for (const [kind, name, from] of [
      ['an ES module', 'consumer.mts', 'dist/contract/'],
      ['CommonJS', 'consumer.cts', 'dist/cjs/contract/'],
    ] as const) {
      it(`shows the field's docstring, in ${kind} (${from})`, () => {
        const consumer = serviceFor(name);
        expect(consumer.errors()).toEqual([]);
        expect(consumer.declarationFiles()).toContain(`${from}recommended-video.d.ts`);
        expect(consumer.declarationFiles().filter((f) => f.startsWith('dist/') && !f.startsWith(from))).toEqual([]);

        const duration = consumer.hover('duration');
        expect(duration).toContain('(property) RecommendedVideo.duration: number');
        expect(duration).toMatch(/\bseconds\b/);
        expect(consumer.hover('top_left_logo')).toMatch(/may be an empty string/);
        expect(consumer.hover('.target')).toMatch(/position.*<placement>\|\|\|\|<index>/s);
        expect(consumer.hover('cp_link')).toMatch(
          /\{app_scheme\}:\/\/<target>\?<query>.*empty string when there is none/s,
        );
        expect(consumer.hover('updated_at')).toMatch(/Unix time in \*\*seconds\*\*/);
        expect(consumer.hover('need_install')).toMatch(/`true` or `false` as text/);
        expect(consumer.hover('nonce')).toMatch(/<number>:<number>/);
        expect(consumer.hover('codec_level')).toMatch(/number written as a string/);
        expect(consumer.hover('.end')).toMatch(/descending `order`.*may be empty/s);
        // The type's own docstring names its seed section.
        expect(consumer.hover('RecommendedVideo', 1)).toMatch(/seed: "Recommended video item"/);
      });
    }
  },
);

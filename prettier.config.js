// The formatter (`npm run format`; `npm run format:check` in `npm test`). printWidth 120: the code
// was written to about that width (93% of its lines fit), so formatting moves few lines; 80 would
// rewrap a quarter of the tree. Markdown is left alone (.prettierignore): docs/commands.md is
// generated from --help and tests read the docs' tables as written.
/** @type {import('prettier').Config} */
export default {
  printWidth: 120,
  singleQuote: true,
  overrides: [
    // The dashboard's lit-html templates are HTML whose whitespace is content (tests read a cell's
    // text): Prettier's HTML formatting would move it, so the templates are laid out by hand.
    { files: 'src/dashboard/**/*.ts', options: { embeddedLanguageFormatting: 'off' } },
  ],
};

// `wrap-ansi` for the CLI bundle (scripts/bundle-cli.mjs): fast-wrap-ansi, the same function under its
// own name, as the default export cliui imports.
export { wrapAnsi as default } from 'fast-wrap-ansi';

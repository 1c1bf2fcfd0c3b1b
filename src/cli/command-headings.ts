/**
 * Each command's heading: its `command` (name and positionals) and `describe` (its line of
 * `mockvideo --help`). Each command module spreads its own; the top-level help, completion and "did
 * you mean" suggestions read them here, so that a start loads only the modules of the commands named
 * on its command line (see `loadCommands`).
 * @module
 */
export const COMMAND_HEADINGS = {
  serve: { command: 'serve', describe: 'Serve the six /api/g1 operations from a named scenario' },
  scenarios: { command: 'scenarios', describe: 'List the scenarios with one-line descriptions' },
  validate: {
    command: 'validate [paths..]',
    describe: 'Check scenario files or recording folders against the contract and list every problem',
  },
  verify: {
    command: 'verify',
    describe: "Check a running server's journal against the contract's call rules (exit 1 on a failure)",
  },
  'new-scenario': {
    command: 'new-scenario <name>',
    describe: 'Write a new scenario file that extends another, ready to edit',
  },
  record: { command: 'record', describe: 'Proxy the real service and record every exchange into a folder' },
  replay: {
    command: 'replay <source>',
    describe:
      'Serve a recording folder (exact matches, else the nearest recording or a near-miss report), or a start-up bundle in its order',
  },
  bundle: {
    command: 'bundle',
    describe: 'Download one start-up of a running server as a bundle file (requests, exact answers, faults, verdict)',
  },
  import: {
    command: 'import <file>',
    describe: 'Turn a HAR file (DevTools, Playwright, Charles, mitmproxy) into recordings',
  },
  export: { command: 'export <dir>', describe: 'Write a recording folder as a HAR 1.2 file' },
  drift: {
    command: 'drift [dirs..]',
    describe:
      'Compare recordings or a scenario with the live service (or two recording folders) by structure; exit 1 on drift',
  },
  scenario: { command: 'scenario <action>', describe: 'Make scenario files: scenario from-recordings DIR --name NAME' },
  fuzz: {
    command: 'fuzz <action> <case>',
    describe: 'Print a generated answer by its case: fuzz show 42:meta/plugin:3',
  },
  config: { command: 'config', describe: 'Print the resolved settings of a command and where each comes from' },
};

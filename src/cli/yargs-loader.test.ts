import yargs from 'yargs';
import { describe, expect, it } from 'vitest';
import { loadYargs } from './yargs-loader.js';

/** A small CLI like mockvideo's: a command with options, help, strict parsing. */
function cli(make: (argv: string[]) => import('yargs').Argv, argv: string[]) {
  return make(argv)
    .scriptName('tool')
    .usage('$0 <command> [options]\n\nA tool.')
    .command({ command: 'go [paths..]', describe: 'Go somewhere — with a wide “quote” and 表 characters', builder: (y) => y.option('n', { type: 'number', describe: 'A number', default: 3 }).option('name', { alias: 's', type: 'string', describe: 'A name' }), handler: () => {} })
    .demandCommand(1)
    .strict()
    .help()
    .version('1.2.3')
    .wrap(80);
}

const helpOf = (make: (argv: string[]) => import('yargs').Argv, argv: string[]) =>
  new Promise<string>((resolve) => void cli(make, argv).showHelp((text) => resolve(text)));

describe('loadYargs', () => {
  it('renders the same help text as the yargs export, with and without its help rendering loaded in advance', async () => {
    const plain = yargs as unknown as (argv: string[]) => import('yargs').Argv;
    const expected = await helpOf(plain, ['go']);
    expect(expected).toContain('A number');
    const { yargs: light } = await loadYargs({ renderHelp: false });
    expect(await helpOf(light, ['go'])).toBe(expected);
    const { yargs: withHelp } = await loadYargs({ renderHelp: true });
    expect(await helpOf(withHelp, ['go'])).toBe(expected);
  });

  it('parses and fails the same way as the yargs export', async () => {
    const { yargs: light, hideBin } = await loadYargs({ renderHelp: false });
    const plain = yargs as unknown as (argv: string[]) => import('yargs').Argv;
    for (const argv of [['go', 'a', 'b', '-s', 'x', '--n', '5'], ['go', '--bogus'], [], ['og']]) {
      const outcome = async (make: (argv: string[]) => import('yargs').Argv) => {
        let failed: string | undefined;
        const args = await cli(make, argv).fail((message) => void (failed = message)).recommendCommands().parseAsync();
        return { failed, args: { ...args, $0: undefined } };
      };
      expect(await outcome(light)).toEqual(await outcome(plain));
    }
    expect(hideBin(['node', 'script', 'serve'])).toEqual(['serve']);
  });
});

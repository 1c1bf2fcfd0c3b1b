import yargs from 'yargs';
import { describe, expect, it } from 'vitest';
import { skipHelpCache } from './main.js';

type Usage = { hasCachedHelpMessage(): boolean; cacheHelpMessage(): void };
const usageOf = (cli: unknown) =>
  (cli as { getInternalMethods(): { getUsageInstance(): Usage } }).getInternalMethods().getUsageInstance();

describe('skipHelpCache', () => {
  const run = async (skip: boolean) => {
    const cli = yargs(['go', '--n', '1']);
    if (skip) skipHelpCache(cli);
    let ran = false;
    await cli
      .command({
        command: 'go',
        describe: 'Go',
        builder: (y) => y.option('n', { type: 'number', describe: 'A number' }),
        handler: () => void (ran = true),
      })
      .help()
      .parseAsync();
    return { ran, cached: usageOf(cli).hasCachedHelpMessage() };
  };

  it('still finds the yargs internals it patches (else every start renders the help text again: ~40 ms)', async () => {
    expect(typeof usageOf(yargs([])).cacheHelpMessage).toBe('function');
    expect(await run(false)).toEqual({ ran: true, cached: true });
  });

  it('runs the command without rendering its help text', async () => {
    expect(await run(true)).toEqual({ ran: true, cached: false });
  });
});

import { describe, expect, it } from 'vitest';
import { COMMAND_HEADINGS } from './command-headings.js';
import { COMMAND_NAMES, loadCommands } from './command-list.js';
import { configCommand } from './commands/config.js';
import type { Settings } from './config.js';

describe('command headings', () => {
  it("are each command module's own command and describe (mockvideo --help lists the headings of the commands not loaded)", async () => {
    const modules = await loadCommands(COMMAND_NAMES);
    for (const name of COMMAND_NAMES) {
      const module = modules.get(name)!;
      expect({ command: module.command, describe: module.describe }).toEqual(COMMAND_HEADINGS[name]);
    }
    const config = configCommand({} as Settings);
    expect({ command: config.command, describe: config.describe }).toEqual(COMMAND_HEADINGS.config);
  });
});

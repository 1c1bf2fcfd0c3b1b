import type { Options } from 'yargs';

/** `--port`: an integer from 0 to 65535; 0 picks a free port. */
export const portOption = {
  // No `type: 'number'`: yargs would turn "eighty" into NaN before the check could quote it.
  requiresArg: true,
  default: 8787,
  describe: 'Port to listen on, 0 to 65535 (0 picks a free port)',
  coerce: (value: unknown) => {
    const port = Number(value);
    if (!Number.isInteger(port) || port < 0 || port > 65535) {
      throw new Error(`--port must be an integer from 0 to 65535, got "${String(value)}"`);
    }
    return port;
  },
} satisfies Options;

/** `--host`: the address to bind; `0.0.0.0` serves devices on the network. */
export const hostOption = {
  type: 'string',
  default: '127.0.0.1',
  describe: 'Address to bind (0.0.0.0 to reach it from devices and emulators on the network)',
} satisfies Options;

/** `--scenarios-dir`: a folder of scenario files added to (and overriding) the shipped ones. */
export const scenariosDirOption = {
  type: 'string',
  describe: "Folder of scenario files, added to the shipped ones (default: the package's scenarios/ folder)",
  normalize: true,
} satisfies Options;

import type { Options } from 'yargs';

/** The `serve` flags for devices: `--https`, `--https-port`, `--cert`, `--key`, `--analytics-path`. */
export const deviceOptions = {
  https: {
    type: 'boolean',
    describe:
      'Serve HTTPS with a certificate generated once and kept in ~/.mockvideo (or $MOCKVIDEO_HOME); HTTPS replaces HTTP on --port unless --https-port is given',
  },
  'https-port': {
    requiresArg: true,
    describe: 'Also serve HTTPS on this port, HTTP staying on --port (0 picks a free port); implies --https',
    coerce: (value: unknown) => {
      if (value === undefined) return undefined;
      const port = Number(value);
      if (!Number.isInteger(port) || port < 0 || port > 65535)
        throw new Error(`--https-port must be an integer from 0 to 65535, got "${String(value)}"`);
      return port;
    },
  },
  cert: {
    type: 'string',
    normalize: true,
    requiresArg: true,
    describe: 'PEM certificate to serve HTTPS with (e.g. from mkcert); needs --key; implies --https',
  },
  key: { type: 'string', normalize: true, requiresArg: true, describe: 'PEM private key of --cert' },
  'analytics-path': {
    type: 'string',
    array: true,
    requiresArg: true,
    describe: 'Another path that accepts analytics records (POST), besides /__mockvideo/analytics; repeatable',
    coerce: (values: unknown[]) =>
      values.map((value) => {
        const path = String(value);
        if (!/^\/[A-Za-z0-9._~/-]*$/.test(path))
          throw new Error(
            `--analytics-path must be a URL path like /log/collect (letters, digits, . _ ~ - /), got "${path}"`,
          );
        return path;
      }),
  },
} satisfies Record<string, Options>;

/** The parsed values of {@link deviceOptions}. */
export interface DeviceArgs {
  https?: boolean;
  'https-port'?: number;
  cert?: string;
  key?: string;
  'analytics-path'?: string[];
}

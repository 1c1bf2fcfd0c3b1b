import type { Argv, CommandModule } from 'yargs';
import { chooseStartUp } from '../../bundle/choose-start-up.js';
import { parseBundle } from '../../bundle/bundle-schema.js';
import { MockvideoError } from '../../errors.js';
import { writeBundleFile } from '../../storage/bundle-file.js';
import type { StartUpVerdict } from '../../verify/start-ups.js';
import { COMMAND_HEADINGS } from '../command-headings.js';
import { runningServerOption, type BuiltArgs } from '../options.js';

/** `--start-up ID|last`: a start-up's id (a whole number) or `last`. */
function startUpFlag(value: unknown): number | 'last' {
  const text = String(value);
  if (text === 'last') return 'last';
  if (/^\d+$/.test(text)) return Number(text);
  // A plain Error, as every coerce step throws: yargs hands its message on to our `fail`, which adds the prefix.
  throw new Error(
    `--start-up takes a start-up's id (a number, as GET /__mockvideo/start-ups lists them) or "last", got "${text}".`,
  );
}

const builder = (yargs: Argv) =>
  yargs
    .option('url', runningServerOption)
    .option('device', { type: 'string', describe: "Only this device's start-ups (its _sdevid)" })
    .option('start-up', {
      type: 'string',
      default: 'last',
      describe: 'Which start-up: its id (GET /__mockvideo/start-ups), or last: the newest',
      coerce: startUpFlag,
    })
    .option('out', { type: 'string', demandOption: true, describe: 'The bundle file to write (atomically)' })
    .option('admin-token', {
      type: 'string',
      describe: 'The admin token of a server started with --admin-token, sent as "Authorization: Bearer TOKEN"',
    })
    .example('$0 bundle --url http://127.0.0.1:8787 --out start-up.json', 'The newest start-up, as one file')
    .example(
      '$0 bundle --url http://127.0.0.1:8787 --device 0123…cdef --start-up 7 --out bug-123.json',
      'Start-up 7 of one device, to attach to a bug report; replay it with: mockvideo replay bug-123.json',
    );

/**
 * GETs `path` of the server at `url` as JSON, with `Authorization: Bearer <token>` when a token is given.
 * @throws MockvideoError naming `--url` (and `--admin-token` for a 401 or 403) when it cannot.
 */
async function getJson<T>(url: string, path: string, token: string | undefined): Promise<T> {
  const address = `${url.replace(/\/+$/, '')}${path}`;
  if (!/^https?:$/.test(URL.parse(address)?.protocol ?? ''))
    throw new MockvideoError(
      'MV_USAGE',
      `--url ${url}: not an http:// or https:// address. Give the one serve printed, e.g. http://127.0.0.1:8787.`,
    );
  let response: Response;
  try {
    response = await fetch(address, token ? { headers: { authorization: `Bearer ${token}` } } : {});
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw new MockvideoError(
      'MV_USAGE',
      `--url ${url}: cannot reach mockvideo there (${cause?.code ?? cause?.message ?? (error as Error).message}). Is "mockvideo serve" running at that address?`,
    );
  }
  const text = await response.text();
  if (response.status === 401 || response.status === 403)
    throw new MockvideoError(
      'MV_USAGE',
      `--url ${url}: GET ${path} answered ${response.status}${token ? ' to the --admin-token given' : ''}. Pass the server's token with --admin-token TOKEN or MOCKVIDEO_ADMIN_TOKEN.`,
    );
  if (!response.ok)
    throw new MockvideoError(
      'MV_USAGE',
      `--url ${url}: GET ${path} answered ${response.status}${text ? `: ${text.slice(0, 200).replace(/\s+/g, ' ')}` : ''}. Is it a mockvideo server of this version?`,
    );
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new MockvideoError('MV_USAGE', `--url ${url}: GET ${path} did not answer JSON. Is it a mockvideo server?`);
  }
}

/**
 * `mockvideo bundle --url URL [--device SDEVID] [--start-up ID|last] --out FILE`: downloads a
 * start-up's bundle from a running mockvideo (`GET /__mockvideo/start-ups/ID/bundle`), checks it and
 * writes it to `--out` atomically; one line says what was written. `--admin-token` (or
 * `MOCKVIDEO_ADMIN_TOKEN`) goes along as `Authorization: Bearer TOKEN`. Bad input (a server not there, a
 * start-up or device the journal does not hold, a folder that does not exist) is one line naming the
 * flag, exit code 2.
 */
export const bundleCommand: CommandModule<object, BuiltArgs<typeof builder>> = {
  ...COMMAND_HEADINGS.bundle,
  builder,
  handler: async (args) => {
    const token = args.adminToken || undefined;
    const { startUps } = await getJson<{ startUps: StartUpVerdict[] }>(args.url, '/__mockvideo/start-ups', token);
    const chosen = chooseStartUp(startUps, { device: args.device, startUp: args.startUp });
    if ('problem' in chosen) throw new MockvideoError('MV_USAGE', chosen.problem);
    const { id } = chosen.startUp;
    const bundle = parseBundle(
      await getJson<unknown>(args.url, `/__mockvideo/start-ups/${id}/bundle`, token),
      `${args.url} (start-up ${id})`,
    );
    try {
      await writeBundleFile(args.out, bundle);
    } catch (error) {
      const { code, message } = error as NodeJS.ErrnoException;
      throw new MockvideoError(
        'MV_USAGE',
        `--out ${args.out}: cannot write it (${code === 'ENOENT' ? 'its folder does not exist' : (code ?? message)}). Give a file in a folder you can write.`,
      );
    }
    const failed = bundle.verdict.rules.filter((r) => !r.ok).map((r) => r.rule);
    process.stdout.write(
      `wrote ${args.out}: start-up ${id} at ${bundle.verdict.start}, ${bundle.exchanges.length} request${bundle.exchanges.length === 1 ? '' : 's'}, verify ${failed.length ? `fails (${failed.join(', ')})` : 'holds'}. Replay it: mockvideo replay ${args.out}\n`,
    );
  },
};

// The reference of `npm run bench` that users would pick instead of mockvideo: talkback
// (https://github.com/ijpiantanida/talkback), installed by bench/references.mjs into a temporary
// folder, never into the repository. Usage:
//   node bench/talkback-server.mjs TALKBACK_PREFIX TAPES_DIR UPSTREAM_URL record|replay [IGNORED]
// `record` proxies every request to UPSTREAM_URL and writes a tape for each new one (talkback's
// RecordMode.NEW); `replay` answers from the tapes only (RecordMode.DISABLED, 404 otherwise).
// Requests match as a user replaying an app's traffic would set talkback up: no headers, and the
// query without IGNORED (comma-separated query parameters; bench/run.mjs passes the ones mockvideo
// leaves out of its match key: volatile, secret, identity).
// Prints `talkback listening at http://127.0.0.1:PORT` once it listens.
import { createRequire } from 'node:module';
import { join } from 'node:path';

const [prefix, tapes, upstream, mode, ignored = ''] = process.argv.slice(2);
if (!prefix || !tapes || !upstream || (mode !== 'record' && mode !== 'replay')) {
  process.stderr.write(
    'usage: node bench/talkback-server.mjs TALKBACK_PREFIX TAPES_DIR UPSTREAM_URL record|replay [IGNORED]\n',
  );
  process.exit(2);
}
const talkback = createRequire(join(prefix, 'package.json'))('talkback');
const { RecordMode, FallbackMode } = talkback.Options;

const server = talkback({
  host: upstream,
  // BENCH_PORT: the port a cold-start round chose (bench/cold-start.mjs); else any free one.
  port: Number(process.env.BENCH_PORT ?? 0),
  path: tapes,
  record: mode === 'record' ? RecordMode.NEW : RecordMode.DISABLED,
  fallbackMode: FallbackMode.NOT_FOUND,
  allowHeaders: [],
  ignoreQueryParams: ignored.split(',').filter(Boolean),
  silent: true,
  summary: false,
});
const http = await server.start();
process.stdout.write(`talkback listening at http://127.0.0.1:${http.address().port}\n`);
const stop = () => {
  http.closeAllConnections?.();
  server.close(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);

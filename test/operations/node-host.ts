import { request } from 'node:http';
import { startCli } from '../support/cli.js';
import {
  answerHeaders,
  bodyOf,
  type Journaled,
  type Seen,
  type Subject,
  type SuiteConfig,
} from '../operations.suite.js';

/** The command line of a suite config. */
function argsOf(config: SuiteConfig, engine: 'routes' | 'msw'): string[] {
  const common = ['--port', '0', '--no-watch', '--engine', engine];
  if (config.mode === 'record') return ['record', '--upstream', config.upstream, '--out', config.out, '--port', '0'];
  if (config.mode === 'serve') {
    return [
      'serve',
      '--scenarios-dir',
      config.scenariosDir,
      ...config.faults.flatMap((flag) => ['--fault', flag]),
      ...(config.strictRequests ? ['--strict-requests'] : []),
      ...common,
    ];
  }
  return [
    'replay',
    config.dir,
    '--match',
    config.match,
    ...(config.fallbackScenario ? ['--fallback-scenario', config.fallbackScenario] : []),
    ...(config.faults ?? []).flatMap((flag) => ['--fault', flag]),
    ...(config.strictRequests ? ['--strict-requests'] : []),
    ...common,
  ];
}

/** The real CLI over HTTP on 127.0.0.1, with `--engine engine`; the journal read from the admin API. */
export function nodeHost(engine: 'routes' | 'msw'): Subject {
  return {
    name: `node host, --engine ${engine}`,
    record: engine === 'routes',
    start: async (config) => {
      const cli = await startCli(argsOf(config, engine));
      const base = cli.url;
      return {
        origin: base,
        send: (exchange) =>
          new Promise<Seen>((resolve, reject) => {
            const req = request(
              `${base}${exchange.path}`,
              { method: exchange.method, headers: exchange.headers ?? {}, agent: false },
              (res) => {
                const chunks: Buffer[] = [];
                res.on('data', (c: Buffer) => chunks.push(c));
                res.on('end', () => {
                  const headers = Object.entries(res.headers).map(
                    ([k, v]) => [k, Array.isArray(v) ? v.join(', ') : String(v)] as const,
                  );
                  resolve({
                    status: res.statusCode!,
                    headers: answerHeaders(headers),
                    body: bodyOf(Buffer.concat(chunks), base),
                  });
                });
                res.on('error', () => resolve('reset'));
              },
            );
            req.on('error', (error: NodeJS.ErrnoException) =>
              error.code === 'ECONNRESET' || error.message === 'socket hang up' ? resolve('reset') : reject(error),
            );
            req.end();
          }),
        journal: async () => {
          const { requests } = (await (await fetch(`${base}/__mockvideo/requests`)).json()) as {
            requests: Array<Omit<Journaled, 'step'> & { step?: string; findings: unknown[] }>;
          };
          return requests.map(({ operation, status, scenario, match, fault, step, findings }) => ({
            operation,
            status,
            scenario,
            match,
            fault,
            step: step ?? null,
            findings: findings.length,
          }));
        },
        close: async () => void (await cli.stop('SIGINT')),
      };
    },
  };
}

// Issue 40, item 2, and issue 39, L2, through the real CLI: the journal says what the routes
// planned (a hang as a hang, a delay the client left as that delay), never an invented reset; and
// `--engine msw` answers as the default engine does (TRACE 405, devices told apart by address).
import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { startCli, type CliProcess } from '../support/cli.js';
import { clientPath } from '../support/client.js';

let cli: CliProcess | undefined;
afterEach(async () => {
  await cli?.stop();
  cli = undefined;
});

/** A GET the client gives up on after `ms` milliseconds (resolves then, or with the status when answered first). */
function giveUpAfter(url: string, ms: number, localAddress = '127.0.0.1'): Promise<number | 'gave up'> {
  return new Promise((resolve) => {
    const req = request(url, { localAddress, agent: false }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', () => undefined);
    setTimeout(() => {
      req.destroy();
      resolve('gave up');
    }, ms);
    req.end();
  });
}

/** The journal's entries, once `count` are there (entries are added when an exchange ends). */
async function journal(base: string, count: number) {
  for (let tries = 0; tries < 50; tries++) {
    const { requests } = (await (await fetch(`${base}/__mockvideo/requests`)).json()) as {
      requests: Array<Record<string, unknown>>;
    };
    if (requests.length >= count) return requests;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the journal did not get ${count} entries`);
}

describe.each(['routes', 'msw'])('the journal reads the plan (--engine %s)', (engine) => {
  it('journals a hang the client gave up on as a hang, and a delay it left as that delay, status 0, with their scenario', async () => {
    cli = await startCli([
      'serve',
      '--port',
      '0',
      '--engine',
      engine,
      '--fault',
      'meta/cp=hang',
      '--fault',
      'meta/setting=delay:5000',
    ]);
    expect(await giveUpAfter(`${cli.url}${clientPath('meta/cp')}`, 1000)).toBe('gave up');
    expect(await giveUpAfter(`${cli.url}${clientPath('meta/setting')}`, 500)).toBe('gave up');
    const [hang, delay] = await journal(cli.url, 2);
    expect(hang).toMatchObject({ operation: 'meta/cp', status: 0, fault: 'hang', scenario: 'default' });
    expect(delay).toMatchObject({
      operation: 'meta/setting',
      status: 0,
      fault: 'delay',
      delayMs: 5000,
      scenario: 'default',
    });
    // The request log says the same: no invented reset.
    expect(cli.stdout()).not.toContain('fault=reset');
  });
});

describe('--engine msw answers as the default engine (issue 39, L2)', () => {
  it('answers TRACE on an operation 405 (allow: GET, HEAD), as --engine routes does', async () => {
    const statuses: Array<[number, string | null]> = [];
    for (const engine of ['routes', 'msw']) {
      cli = await startCli(['serve', '--port', '0', '--engine', engine]);
      const status = await new Promise<[number, string | null]>((resolve, reject) =>
        request(`${cli!.url}/api/g1/meta/cp`, { method: 'TRACE', agent: false }, (res) => {
          res.resume();
          resolve([res.statusCode!, (res.headers.allow as string | undefined) ?? null]);
        })
          .on('error', reject)
          .end(),
      );
      statuses.push(status);
      await cli.stop();
      cli = undefined;
    }
    expect(statuses).toEqual([
      [405, 'GET, HEAD'],
      [405, 'GET, HEAD'],
    ]);
  });

  it('tells devices without _sdevid apart by their address under --fuzz, as --engine routes does', async () => {
    const cases: string[][] = [];
    for (const engine of ['routes', 'msw']) {
      cli = await startCli(['serve', '--port', '0', '--engine', engine, '--fuzz', '7']);
      const seen: string[] = [];
      for (const address of ['127.0.0.1', '127.0.0.2', '127.0.0.1']) {
        const answer = await new Promise<string>((resolve, reject) =>
          request(`${cli!.url}/api/g1/meta/setting?_region=IN`, { localAddress: address, agent: false }, (res) => {
            res.resume();
            resolve(String(res.headers['x-mockvideo-fuzz']));
          })
            .on('error', reject)
            .end(),
        );
        seen.push(answer);
      }
      cases.push(seen);
      await cli.stop();
      cli = undefined;
    }
    // Two devices: each starts at its first call; the first device's second request is its second call.
    expect(cases[0]!.map((c) => c.split(':').at(-1))).toEqual(['1', '1', '2']);
    expect(cases[1]).toEqual(cases[0]);
  });
});

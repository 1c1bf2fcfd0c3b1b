import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATION_NAMES } from '../../src/contract/operation-table.js';
import { clientPath } from '../support/client.js';
import { runCli, startCli, type CliProcess } from '../support/cli.js';

const servers: CliProcess[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
});
async function serve(args: string[]): Promise<CliProcess> {
  const server = await startCli(['serve', '--port', '0', '--no-watch', ...args]);
  servers.push(server);
  return server;
}

/** One device's calls: each operation twice, in order; the bytes and case of each answer. */
async function session(url: string): Promise<Array<{ fuzzCase: string | null; body: string }>> {
  const answers = [];
  for (const round of [1, 2]) {
    for (const operation of OPERATION_NAMES) {
      const response = await fetch(`${url}${clientPath(operation, { is_from_gallery: 'true' })}`);
      expect(response.status, `${operation} call ${round}`).toBe(200);
      answers.push({ fuzzCase: response.headers.get('x-mockvideo-fuzz'), body: await response.text() });
    }
  }
  return answers;
}

describe('serve --fuzz', () => {
  let first: CliProcess;
  let answers: Awaited<ReturnType<typeof session>>;
  beforeAll(async () => {
    first = await serve(['--fuzz', '42']);
    answers = await session(first.url);
  });

  it('prints the seed and answers every operation with a case of that seed, the device calls counted', () => {
    expect(first.stdout()).toContain('fuzz: seed 42');
    expect(answers.map((a) => a.fuzzCase)).toEqual(
      [1, 2].flatMap((call) => OPERATION_NAMES.map((operation) => `42:${operation}:${call}`)),
    );
  });

  it('gives byte-identical answers in another process, and under --engine msw', async () => {
    expect(await session((await serve(['--fuzz', '42'])).url)).toEqual(answers);
    expect(await session((await serve(['--fuzz', '42', '--engine', 'msw'])).url)).toEqual(answers);
  });

  it('rebuilds the answer of a case with "fuzz show" and "--fuzz-case"', async () => {
    const { fuzzCase, body } = answers[OPERATION_NAMES.indexOf('meta/plugin') + OPERATION_NAMES.length]!;
    const shown = await runCli(['fuzz', 'show', fuzzCase!]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toBe(`${body}\n`);
    const replaying = await serve(['--fuzz-case', fuzzCase!]);
    for (let i = 0; i < 3; i++) {
      const response = await fetch(`${replaying.url}${clientPath('meta/plugin')}`);
      expect(response.headers.get('x-mockvideo-fuzz')).toBe(fuzzCase);
      expect(await response.text()).toBe(body);
    }
  });

  it('keeps the case in the journal and counts the edge classes at /__mockvideo/fuzz', async () => {
    const { requests } = (await (await fetch(`${first.url}/__mockvideo/requests`)).json()) as {
      requests: Array<{ fuzz?: string }>;
    };
    expect(requests.map((r) => r.fuzz).sort()).toEqual(answers.map((a) => a.fuzzCase).sort());
    const report = (await (await fetch(`${first.url}/__mockvideo/fuzz`)).json()) as {
      seed: number;
      answers: number;
      integers: number;
      classes: Array<{ name: string; on: boolean; answers: number; describe: string }>;
    };
    expect(report).toMatchObject({ seed: 42, answers: answers.length, integers: 32 });
    expect(report.classes.reduce((sum, c) => sum + c.answers, 0)).toBeGreaterThan(0);
    expect(report.classes.find((c) => c.name === 'integer-extreme')).toMatchObject({
      on: true,
      describe: expect.stringContaining('32-bit'),
    });
    // What the seed only observed holds in this run: those classes are not drawn.
    expect(report.classes.find((c) => c.name === 'diversion-order-unsorted')?.on).toBe(false);
  });

  it('chooses and prints a seed when none is given; names a bad seed or case', async () => {
    const random = await serve(['--fuzz']);
    // The seed line follows the URL line: read on until it is there.
    while (!/fuzz: seed \d+/.test(random.stdout())) await new Promise((resolve) => setTimeout(resolve, 20));
    const seed = /fuzz: seed (\d+)/.exec(random.stdout())![1];
    expect((await fetch(`${random.url}${clientPath('ad_config')}`)).headers.get('x-mockvideo-fuzz')).toBe(
      `${seed}:ad_config:1`,
    );
    const bad = await runCli(['serve', '--port', '0', '--fuzz', 'abc']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--fuzz: Cannot read fuzz seed "abc"');
    const withReplay = await runCli(['serve', '--port', '0', '--fuzz', '1', '--replay', 'recordings']);
    expect(withReplay.code).toBe(2);
    expect(withReplay.stderr).toContain('--replay with recordings: pick one');
    const badCase = await runCli(['fuzz', 'show', '42:nope:1']);
    expect(badCase.stderr.trim()).toBe(
      '[mockvideo] Cannot read fuzz case "42:nope:1": "nope" is not an operation. A case looks like 42:meta/plugin:3 (seed:operation:call), as the x-mockvideo-fuzz header sends it.',
    );
  });
});

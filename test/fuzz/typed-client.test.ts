// serve --fuzz as a typed Android client takes it (issue 42): thousands of answers decoded into
// 32-bit Int fields (64-bit Long for Unix time), strings where the seed says text, over HTTP.
import { afterAll, describe, expect, it } from 'vitest';
import { OPERATION_NAMES } from '../../src/contract/operation-table.js';
import { startCli, type CliProcess } from '../support/cli.js';
import { clientPath } from '../support/client.js';
import { typedDecodeProblem } from '../support/typed-decoder.js';

/** Start-ups per device and devices at once: 8 × 60 × 6 = 2,880 answers. */
const DEVICES = 8;
const START_UPS = 60;

const servers: CliProcess[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
});

/** The decoder's problems with every answer of `DEVICES` devices × `START_UPS` start-ups, with their cases. */
async function decodeProblems(args: string[]): Promise<{ answers: number; problems: string[] }> {
  const server = await startCli(['serve', '--port', '0', '--no-watch', '--quiet', ...args]);
  servers.push(server);
  const problems: string[] = [];
  let answers = 0;
  await Promise.all(
    Array.from({ length: DEVICES }, async (_, d) => {
      const device = `_sdevid=${d.toString(16).padStart(64, 'c')}`;
      for (let s = 0; s < START_UPS; s++)
        for (const operation of OPERATION_NAMES) {
          const path = clientPath(operation).replace(/_sdevid=[0-9a-f]{64}/, device);
          const response = await fetch(`${server.url}${path}`);
          const problem = typedDecodeProblem(operation, await response.text());
          answers++;
          if (problem) problems.push(`${response.headers.get('x-mockvideo-fuzz')}: ${problem}`);
        }
    }),
  );
  return { answers, problems };
}

describe('serve --fuzz through a typed client', () => {
  it('decodes every default answer into 32-bit Int fields and 64-bit Unix times', async () => {
    const { answers, problems } = await decodeProblems(['--fuzz', '42']);
    expect(answers).toBe(DEVICES * START_UPS * OPERATION_NAMES.length);
    expect(problems.slice(0, 5)).toEqual([]);
  }, 120_000);

  it('still reaches the 32-bit overflow with --fuzz-integers 53', async () => {
    const { problems } = await decodeProblems(['--fuzz', '42', '--fuzz-integers', '53']);
    expect(problems.some((p) => /Expected an int but was -?\d{10,16} at \$\.data/.test(p))).toBe(true);
  }, 120_000);
});

import { describe, expect, it } from 'vitest';
import { clientPath } from '../support/client.js';
import { startCli } from '../support/cli.js';

async function logOf(flags: string[], env: NodeJS.ProcessEnv = {}): Promise<string> {
  const server = await startCli(['serve', '--port', '0', '--no-watch', ...flags], { env });
  try {
    await fetch(`${server.url}${clientPath('meta/cp')}`);
    await fetch(`${server.url}${clientPath('meta/cp').replace('_region=IN', '_region=in')}`);
    await new Promise((r) => setTimeout(r, 100));
    return server.stdout();
  } finally {
    await server.stop();
  }
}

describe('request log output', () => {
  it('--log json prints one JSON object per request', async () => {
    const lines = (await logOf(['--log', 'json'])).split('\n').filter((l) => l.startsWith('{'));
    expect(lines).toHaveLength(2);
    expect(JSON.parse(lines[0]!)).toMatchObject({
      msg: 'request',
      method: 'GET',
      operation: 'meta/cp',
      scenario: 'default',
      status: 200,
      level: 'info',
    });
    expect(JSON.parse(lines[1]!)).toMatchObject({ findings: 1 });
  });

  it('--quiet prints the start line but no request lines', async () => {
    const out = await logOf(['--quiet']);
    expect(out.split('\n')[0]).toMatch(/^mockvideo serving scenario "default" at http:/);
    expect(out).not.toMatch(/^GET /m);
  });

  it('--verbose adds each finding under its request', async () => {
    expect(await logOf(['--verbose'])).toMatch(
      /^ {4}#2 meta\/cp format: _region must be two upper-case letters, got "in"$/m,
    );
  });

  it('colours follow NO_COLOR and FORCE_COLOR', async () => {
    expect(await logOf([], { NO_COLOR: '1' })).not.toContain('\u001b[');
    expect(await logOf([], { NO_COLOR: '', FORCE_COLOR: '1' })).toMatch(
      /GET meta\/cp {2}default {2}\u001b\[32m200\u001b\[39m/,
    );
  });
});

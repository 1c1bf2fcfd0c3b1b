import { describe, expect, it } from 'vitest';
import { SERVER_LIMITS, listen } from './listen.js';

describe('listen', () => {
  it('starts on a free port with time limits against slow clients, and closes', async () => {
    const running = await listen((_req, res) => res.end('ok'), 0, '127.0.0.1');
    try {
      expect(running.url).toBe(`http://127.0.0.1:${running.port}`);
      expect(running.server.headersTimeout).toBe(SERVER_LIMITS.headersTimeout);
      expect(running.server.requestTimeout).toBe(SERVER_LIMITS.requestTimeout);
      expect(await (await fetch(running.url)).text()).toBe('ok');
    } finally {
      await running.close();
    }
    expect(running.server.listening).toBe(false);
  });
});

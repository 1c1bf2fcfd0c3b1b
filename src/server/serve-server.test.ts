import { describe, expect, it } from 'vitest';
import { shippedCatalog } from '../scenarios/index.js';
import { startServeServer } from './serve-server.js';

describe('startServeServer', () => {
  it('answers 500 when answering a request throws, and goes on serving the next ones', async () => {
    const { running, context } = await startServeServer({ catalog: shippedCatalog(), scenario: 'default', port: 0, host: '127.0.0.1' });
    try {
      const respond = context.responder.respond.bind(context.responder);
      context.responder.respond = () => {
        throw new Error('a bug');
      };
      const failed = await fetch(`${running.url}/api/g1/meta/cp`);
      expect(failed.status).toBe(500);
      expect(await failed.json()).toEqual({ error: 'mockvideo failed to answer: a bug' });
      context.responder.respond = respond;
      expect((await fetch(`${running.url}/api/g1/meta/cp`)).status).toBe(200);
    } finally {
      await running.close();
    }
  });
});

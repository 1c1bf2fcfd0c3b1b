import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { shippedCatalog } from '../../scenarios/shipped-catalog.js';
import { startServers } from '../listen/start-servers.js';
import { startServeServer } from './serve.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

describe('startServeServer', () => {
  it('answers 500 when answering a request throws, and goes on serving the next ones', async () => {
    const { running, context } = await startServeServer({
      catalog: shippedCatalog(),
      scenario: 'default',
      port: 0,
      host: '127.0.0.1',
    });
    try {
      const respond = context.responder.respond.bind(context.responder);
      context.responder.respond = () => {
        throw new Error('a bug');
      };
      const failed = await fetch(`${running.url}/api/g1/meta/cp`);
      expect(failed.status).toBe(500);
      expect(await failed.json()).toEqual({ error: 'mockvideo failed to answer: a bug', code: 'MV_INTERNAL' });
      context.responder.respond = respond;
      expect((await fetch(`${running.url}/api/g1/meta/cp`)).status).toBe(200);
    } finally {
      await running.close();
    }
  });

  it('journals requests without keeping their request and response objects alive', async () => {
    const requests: Array<WeakRef<object>> = [];
    const { running, context } = await startServeServer({
      catalog: shippedCatalog(),
      scenario: 'default',
      port: 0,
      host: '127.0.0.1',
      onRequest: () => undefined,
      listen: (listener) =>
        startServers((req, res) => (requests.push(new WeakRef(req), new WeakRef(res)), listener(req, res)), {
          port: 0,
          host: '127.0.0.1',
        }),
    });
    try {
      for (let i = 0; i < 20; i++) expect((await fetch(`${running.url}/api/g1/meta/cp?_nonce=${i}`)).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 50));
      gc();
      expect(context.journal.exchanges().length).toBe(20);
      expect(requests.filter((ref) => ref.deref() !== undefined).length).toBeLessThanOrEqual(4);
    } finally {
      await running.close();
    }
  });
});

import { describe, expect, it } from 'vitest';
import { replayedHeaders } from './drift.js';

describe("replayedHeaders (what drift sends of a recorded request's headers)", () => {
  it('drops credential, forwarding, per-hop and redacted headers whatever their case, and keeps the rest in lower case', () => {
    const recorded = {
      Authorization: 'Bearer made-up',
      COOKIE: 'sid=made-up',
      'Proxy-Authorization': 'Basic made-up',
      Forwarded: 'for=10.0.0.1',
      'X-Forwarded-For': '10.0.0.1',
      'x-forwarded-host': 'evil.example',
      Via: '1.1 proxy',
      'X-Real-IP': '10.0.0.2',
      Host: 'api.example.com',
      'Transfer-Encoding': 'chunked',
      'X-Api-Key': '<REDACTED>',
      'User-Agent': 'okhttp/4.12.0',
      Accept: '*/*',
    };
    expect(replayedHeaders(recorded)).toEqual({ 'user-agent': 'okhttp/4.12.0', accept: '*/*' });
  });
});

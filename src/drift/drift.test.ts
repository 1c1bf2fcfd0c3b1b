import { describe, expect, it } from 'vitest';
import { DEFAULT_POLICY, type NamedRecording } from '../normalise/index.js';
import { targetsFromRecordings } from './drift.js';

/** A recording of `GET /api/g1/meta/cp` sent with `headers`. */
function recorded(headers: Record<string, string>): NamedRecording {
  return {
    name: 'meta-cp/0a1b2c3d4e5f-000.json',
    recording: {
      operation: 'meta/cp',
      matchKey: 'GET meta/cp',
      recordedAt: '2026-01-01T00:00:00.000Z',
      request: { method: 'GET', path: '/api/g1/meta/cp', query: [], headers },
      response: { status: 200, headers: {}, body: '{"msg":"OK","result":1,"data":[]}' },
    },
  };
}

describe("the headers drift sends of a recorded request's headers", () => {
  it('drops credential, forwarding, per-hop and redacted headers whatever their case, and keeps the rest in lower case', () => {
    const headers = {
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
    const { targets } = targetsFromRecordings([recorded(headers)], new Map(), DEFAULT_POLICY);
    expect(targets[0]!.live!.headers).toEqual({ 'user-agent': 'okhttp/4.12.0', accept: '*/*' });
  });
});

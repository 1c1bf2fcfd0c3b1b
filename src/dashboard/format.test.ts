import { describe, expect, it } from 'vitest';
import {
  curlCommand,
  describeFault,
  detailLabel,
  deviceUrls,
  deviceLabel,
  duration,
  matchOf,
  prettyBody,
  recordKind,
  statusClass,
} from './format.js';

describe('dashboard formatting', () => {
  it('describes a planned fault in a few words', () => {
    expect(describeFault({ fault: { kind: 'status', status: 503 } })).toBe('status 503');
    expect(describeFault({ fault: { kind: 'delay', ms: [200, 800] } })).toBe('delay 200–800 ms');
    expect(describeFault({ fault: { kind: 'envelope' } })).toBe('envelope result 0');
    expect(describeFault({ fault: { kind: 'reset' } })).toBe('reset');
  });

  it('pretty-prints JSON bodies and leaves other text as sent', () => {
    expect(prettyBody('{"msg":"OK","result":1}')).toBe('{\n  "msg": "OK",\n  "result": 1\n}');
    expect(prettyBody('{"data": [1,')).toBe('{"data": [1,');
    expect(prettyBody('')).toBe('(empty body)');
  });

  it('classes statuses, 0 being no answer at all', () => {
    expect([statusClass(200), statusClass(304), statusClass(503), statusClass(0)]).toEqual(['ok', 'ok', 'bad', 'none']);
  });

  it('shows durations in ms or s', () => {
    expect([duration(0.84), duration(412.3), duration(2345)]).toEqual(['0.8 ms', '412 ms', '2.3 s']);
  });
});

describe('device URLs on the dashboard', () => {
  const location = { origin: 'http://127.0.0.1:8787', protocol: 'http:', port: '8787' };

  it('uses the URLs the server lists', () => {
    const listed = [{ label: 'LAN (eth0)', url: 'http://192.168.1.20:8787' }];
    expect(
      deviceUrls({ ok: true, mode: 'serve', scenario: 'default', uptimeSeconds: 1, deviceUrls: listed }, location),
    ).toEqual(listed);
  });

  it('names mode details for people', () => {
    expect([detailLabel('upstream'), detailLabel('recordingDir'), detailLabel('scenarios_version')]).toEqual([
      'Upstream',
      'Recording dir',
      'Scenarios version',
    ]);
  });

  it('falls back to the page origin and the Android emulator on the same port', () => {
    expect(
      deviceUrls({ ok: true, mode: 'serve', scenario: 'default', uptimeSeconds: 1 }, location).map((u) => u.url),
    ).toEqual(['http://127.0.0.1:8787', 'http://10.0.2.2:8787']);
  });
});

describe('device lanes and request detail', () => {
  it('names a device by its given name, else the start of its _sdevid', () => {
    expect(deviceLabel({ sdevid: 'a'.repeat(64), name: 'QA Pixel' })).toBe('QA Pixel');
    expect(deviceLabel({ sdevid: 'a'.repeat(64), name: null })).toBe('aaaaaaaa…');
    expect(deviceLabel({ sdevid: '(no _sdevid)' })).toBe('(no _sdevid)');
  });

  it('says miss for a replay request no recording answered, nothing outside replay', () => {
    expect(matchOf({ match: 'exact', status: 200 }, 'replay')).toBe('exact');
    expect(matchOf({ match: null, status: 404 }, 'replay')).toBe('miss');
    expect(matchOf({ match: null, status: 404 }, 'serve')).toBeNull();
  });

  it('writes a request as curl: the query as sent, shell-quoted, without the headers curl sets', () => {
    const curl = curlCommand('http://127.0.0.1:8787', {
      method: 'GET',
      path: '/api/g1/meta/cp',
      query: [
        ['ref', ''],
        ['_model', 'Redmi%20Note'],
        ['q', "it's"],
      ],
      headers: { host: '127.0.0.1:8787', 'user-agent': 'okhttp/4.12.0', connection: 'close' },
    });
    expect(curl).toBe(
      `curl 'http://127.0.0.1:8787/api/g1/meta/cp?ref=&_model=Redmi%20Note&q=it'\\''s' -H 'user-agent: okhttp/4.12.0'`,
    );
  });

  it('names an analytics record by its type or event', () => {
    expect([recordKind({ type: 'click' }), recordKind({ event: 'auto_login' }), recordKind('x')]).toEqual([
      'click',
      'auto_login',
      '(unknown kind)',
    ]);
  });
});

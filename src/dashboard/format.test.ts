import { describe, expect, it } from 'vitest';
import { detailLabel, deviceUrls } from './controls.js';
import { describeFault, duration, prettyBody, statusClass } from './format.js';

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
    expect(deviceUrls({ ok: true, mode: 'serve', scenario: 'default', uptimeSeconds: 1, deviceUrls: listed }, location)).toEqual(listed);
  });

  it('names mode details for people', () => {
    expect([detailLabel('upstream'), detailLabel('recordingDir'), detailLabel('scenarios_version')]).toEqual(['Upstream', 'Recording dir', 'Scenarios version']);
  });

  it('falls back to the page origin and the Android emulator on the same port', () => {
    expect(deviceUrls({ ok: true, mode: 'serve', scenario: 'default', uptimeSeconds: 1 }, location).map((u) => u.url)).toEqual(['http://127.0.0.1:8787', 'http://10.0.2.2:8787']);
  });
});

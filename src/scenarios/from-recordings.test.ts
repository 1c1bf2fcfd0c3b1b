import { describe, expect, it } from 'vitest';
import type { OperationName } from '../contract/core.js';
import type { NamedRecording } from '../normalise/index.js';
import { scenarioFromRecordings } from './from-recordings.js';
import { shippedCatalog } from './shipped-catalog.js';
import { shippedScenarios } from './shipped.js';

const DEVICE_A = 'a'.repeat(64);
const DEVICE_B = 'b'.repeat(64);

let count = 0;
/** A recording of `operation` answered with `body`, from device `device` (kept, as with --keep-identifiers). */
function recording(
  operation: OperationName,
  body: string,
  device = '<REDACTED>',
  extra: Array<[string, string]> = [],
): NamedRecording {
  const n = count++;
  return {
    name: `${operation.replace('/', '-')}/00000000000${n % 10}-00${n % 10}.json`,
    recording: {
      operation,
      matchKey: `GET ${operation}`,
      recordedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString(),
      request: {
        method: 'GET',
        path: `/api/g1/${operation}`,
        query: [...extra, ['_sdevid', device], ['_st', '<SERVICE_TOKEN>']],
        headers: {},
      },
      response: { status: 200, headers: {}, body },
    },
  };
}

const options = { name: 'from-test', shipped: shippedScenarios() };
const defaultBody = (op: OperationName) => shippedCatalog().get('default').operations[op][0]!.responses[0]!.body;

describe('scenarioFromRecordings', () => {
  it('extends default and leaves out an operation answered exactly as default answers it', () => {
    const made = scenarioFromRecordings(
      [
        recording('ad_config', defaultBody('ad_config')),
        recording('meta/setting', defaultBody('meta/setting').replace('"codec_level":"', '"codec_level":"9')),
      ],
      options,
    );
    expect(made.problems).toEqual([]);
    expect(made.file.extends).toBe('default');
    expect(Object.keys(made.file.operations)).toEqual(['meta/setting']);
  });

  it('keeps a body that re-serialising would change (key order, spacing) as its exact text', () => {
    const text = '{"result":1,"msg":"OK","data":{"enabled":true}}';
    const made = scenarioFromRecordings(
      [recording('ad_config', text), recording('ad_config', '{"data":{"enabled":false},"msg":"OK","result":1}')],
      options,
    );
    expect(made.file.operations.ad_config).toEqual({ sequence: [{ body: text }, { data: { enabled: false } }] });
  });

  it('rewrites the URLs of --recorded-origin to {origin}, and redacts identifiers the recordings kept', () => {
    const body = `{"data":{"icon":"http://10.0.0.5:8080/img/1.png","device":"${DEVICE_A}"},"msg":"OK","result":1}`;
    const made = scenarioFromRecordings([recording('ad_config', body, DEVICE_A)], {
      ...options,
      origins: ['http://10.0.0.5:8080/'],
    });
    expect(made.file.operations.ad_config).toEqual({ data: { icon: '{origin}/img/1.png', device: '<REDACTED>' } });
  });

  it('rewrites URLs written with escaped slashes too, keeping the recorded text byte for byte otherwise', () => {
    const body =
      '{"data":{"icon":"http:\\/\\/10.0.0.5:8080\\/img\\/1.png","thumb":"http:\\/\\/10.0.0.6:9\\/__mockvideo\\/media\\/t.png"},"msg":"OK","result":1}';
    const made = scenarioFromRecordings([recording('ad_config', body)], {
      ...options,
      origins: ['http://10.0.0.5:8080'],
    });
    expect(made.file.operations.ad_config).toEqual({
      body: '{"data":{"icon":"{origin}\\/img\\/1.png","thumb":"{origin}\\/__mockvideo\\/media\\/t.png"},"msg":"OK","result":1}',
    });
  });

  it("takes one device's session with --device, and names the devices when none matches", () => {
    const answer = (enabled: boolean) => `{"data":{"enabled":${enabled}},"msg":"OK","result":1}`;
    const made = scenarioFromRecordings(
      [recording('ad_config', answer(true), DEVICE_A), recording('ad_config', answer(false), DEVICE_B)],
      { ...options, device: 'bbbb' },
    );
    expect(made.file.operations.ad_config).toEqual({ data: { enabled: false } });
    expect(() =>
      scenarioFromRecordings([recording('ad_config', answer(true), DEVICE_A)], { ...options, device: 'cccc' }),
    ).toThrow(/no recording of device "cccc"; the devices recorded are aaaaaaaaaaaa…/);
  });
});

import { describe, expect, it } from 'vitest';
import { queryValues } from '../normalise/index.js';
import { clientPath } from '../../test/support/client.js';
import { requestFindings, type Finding } from './request-findings.js';
import type { OperationName } from '../contract/index.js';

const NOW = 1_795_322_072;
const queryOf = (operation: OperationName, edit: (q: string) => string = (q) => q) =>
  queryValues(
    edit(
      clientPath(operation)
        .split('?')[1]!
        .replace(/_ts=\d+/, `_ts=${NOW}`),
    ),
  );
const rules = (operation: OperationName, edit: (q: string) => string, hasBody = false) =>
  requestFindings({ operation, query: queryOf(operation, edit), hasBody, nowSeconds: NOW }).map((f) => [
    f.parameter,
    f.rule,
  ]);

describe('requestFindings', () => {
  it.each(['ad_config', 'meta/cp', 'meta/setting', 'meta/plugin', 'localplay/diversion', 'localplay/recomm'] as const)(
    'finds nothing in a correct %s request',
    (operation) => {
      expect(requestFindings({ operation, query: queryOf(operation), nowSeconds: NOW })).toEqual([]);
    },
  );

  it.each<[string, OperationName, (q: string) => string, Array<[string, Finding['rule']]>]>([
    ['a missing parameter', 'meta/cp', (q) => q.replace(/&_region=IN/, ''), [['_region', 'missing-parameter']]],
    [
      '_sdevid not 64 lowercase hex',
      'meta/cp',
      (q) => q.replace(/_sdevid=[0-9a-f]+/, '_sdevid=ABC'),
      [['_sdevid', 'format']],
    ],
    [
      '_locale not <language>_<COUNTRY>',
      'meta/cp',
      (q) => q.replace('_locale=en_IN', '_locale=en-in'),
      [['_locale', 'format']],
    ],
    [
      '_region not two upper-case letters',
      'meta/cp',
      (q) => q.replace('_region=IN', '_region=india'),
      [['_region', 'format']],
    ],
    ['_isoemui not 1 or 0', 'meta/cp', (q) => q.replace('_isoemui=1', '_isoemui=yes'), [['_isoemui', 'format']]],
    ['_anoyid not a UUID', 'meta/cp', (q) => q.replace(/_anoyid=[^&]+/, '_anoyid=12345'), [['_anoyid', 'format']]],
    ['_nonce not an integer', 'meta/cp', (q) => q.replace(/_nonce=[^&]+/, '_nonce=abc'), [['_nonce', 'format']]],
    ['_ts in milliseconds', 'meta/cp', (q) => q.replace(/_ts=\d+/, `_ts=${NOW}000`), [['_ts', 'ts-skew']]],
    ['_ver not <build>(<channel>)', 'meta/cp', (q) => q.replace(/_ver=[^&]+/, '_ver=2024062790'), [['_ver', 'format']]],
    ['_plyver not 8 digits', 'meta/cp', (q) => q.replace('_plyver=20240611', '_plyver=2024'), [['_plyver', 'format']]],
    ['_cam not 32 hex', 'meta/cp', (q) => q.replace(/_cam=[^&]+/, '_cam=xyz'), [['_cam', 'format']]],
    [
      '_appver not an integer',
      'meta/cp',
      (q) => q.replace('_appver=2024062790', '_appver=v1'),
      [['_appver', 'format']],
    ],
    ['_andver not an integer', 'meta/cp', (q) => q.replace('_andver=33', '_andver=13.0'), [['_andver', 'format']]],
    ['a repeated common parameter', 'meta/cp', (q) => `${q}&_region=IN`, [['_region', 'repeated-parameter']]],
    [
      'the diversion without the empty first ref',
      'localplay/diversion',
      (q) => q.replace(/^ref=&/, ''),
      [['ref', 'ref-order']],
    ],
    [
      'the recommendations with the common ref first',
      'localplay/recomm',
      (q) => q.replace(/^ref=&/, '').replace('_res=hd1080', '_res=hd1080&ref='),
      [['ref', 'ref-order']],
    ],
    [
      'is_from_gallery not a boolean',
      'localplay/diversion',
      (q) => q.replace('is_from_gallery=true', 'is_from_gallery=1'),
      [['is_from_gallery', 'format']],
    ],
    [
      'is_from_gallery missing',
      'localplay/diversion',
      (q) => q.replace('is_from_gallery=true&', ''),
      [['is_from_gallery', 'missing-parameter']],
    ],
  ])('reports %s', (_what, operation, edit, expected) => {
    expect(rules(operation, edit)).toEqual(expected);
  });

  it('reports a body on a GET', () => {
    expect(rules('ad_config', (q) => q, true)).toEqual([['', 'body-on-get']]);
  });

  it('reports _ts far from the server clock, in hours', () => {
    const findings = requestFindings({
      operation: 'ad_config',
      query: queryOf('ad_config'),
      nowSeconds: NOW + 3 * 86_400,
    });
    expect(findings).toEqual([{ parameter: '_ts', rule: 'ts-skew', message: expect.stringContaining('72 hours') }]);
  });

  it('never throws on malformed encoding or odd pairs', () => {
    expect(() =>
      requestFindings({ operation: 'meta/cp', query: queryValues('%E0%A4%A=%zz&&=&ref&ref') }),
    ).not.toThrow();
  });
});

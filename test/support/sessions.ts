import type { OperationName } from '../../src/contract/index.js';
import { clientPath } from './client.js';

/** Made-up values for a second device and session: another token, other identifiers, fresh `_nonce` and `_ts`. */
export const OTHER_SESSION: Readonly<Record<string, string>> = {
  _st: 'ANOTHER-PLACEHOLDER-TOKEN-42',
  _sdevid: 'f'.repeat(64),
  _anoyid: '11111111-2222-4333-8444-555555555555',
  _cam: 'c'.repeat(32),
  _diordna: 'd'.repeat(32),
  _app_coop_md5: 'e'.repeat(32),
  _nonce: '-987654321',
  _ts: '1795999999',
};

/** {@link clientPath} with some parameters' raw values replaced (order and everything else kept). */
export function clientPathWith(
  operation: OperationName,
  replace: Readonly<Record<string, string>>,
  extra: { is_from_gallery?: 'true' | 'false' } = {},
): string {
  const path = clientPath(operation, extra);
  const [pathname, search = ''] = path.split('?');
  return `${pathname}?${search
    .split('&')
    .map((pair) => {
      const [name] = pair.split('=');
      return name! in replace ? `${name}=${replace[name!]}` : pair;
    })
    .join('&')}`;
}

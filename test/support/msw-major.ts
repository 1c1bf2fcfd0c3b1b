import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/** The major version of the msw this process loads (2 on the Node 20 leg of `.ci/run`, 3 on the Node 24 leg). */
export const MSW_MAJOR = Number(
  (
    JSON.parse(readFileSync(createRequire(import.meta.url).resolve('msw/package.json'), 'utf8')) as { version: string }
  ).version.split('.')[0],
);

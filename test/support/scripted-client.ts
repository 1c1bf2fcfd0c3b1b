// A scripted client in place of an emulator and its instrumented tests, for test/ci/ci-doc.test.ts:
//   node --import tsx test/support/scripted-client.ts ADB_LOG
// reads the port of `adb reverse tcp:8787 tcp:PORT` from ADB_LOG (what the fake adb wrote), then
// makes one start-up of the device $SCRIPTED_DEVICE over 127.0.0.1:PORT, leaving out the operation
// $SCRIPTED_SKIP when set.
import { readFileSync } from 'node:fs';
import type { OperationName } from '../../src/contract/index.js';
import { scriptedStartUp } from './junit.js';

const port = /reverse tcp:8787 tcp:(\d+)/.exec(readFileSync(process.argv[2]!, 'utf8'))?.[1];
if (!port) throw new Error('adb reverse was not run before the tests');
const skip = process.env.SCRIPTED_SKIP as OperationName | undefined;
const statuses = await scriptedStartUp(`http://127.0.0.1:${port}`, process.env.SCRIPTED_DEVICE ?? 'a'.repeat(64), {
  ...(skip ? { skip } : {}),
});
process.stdout.write(`scripted start-up: ${statuses.join(' ')}\n`);

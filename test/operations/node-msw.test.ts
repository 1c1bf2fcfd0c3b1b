// The shared behaviour suite against `--engine msw`: the generated MSW handlers through msw's getResponse as the Node host's routes (src/server/host/msw-engine.ts), over real HTTP.
import { operationsSuite } from '../operations.suite.js';
import { nodeHost } from './node-host.js';

operationsSuite(nodeHost('msw'));

// The shared behaviour suite against the Node host (the default engine: routes through node:http), over real HTTP.
import { operationsSuite } from '../operations.suite.js';
import { nodeHost } from './node-host.js';

operationsSuite(nodeHost('routes'));

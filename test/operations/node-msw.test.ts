// The shared behaviour suite against `--engine msw`: the generated MSW handlers through @mswjs/http-middleware in Express, over real HTTP.
import { operationsSuite } from '../operations.suite.js';
import { nodeHost } from './node-host.js';

operationsSuite(nodeHost('msw'));

// The shared behaviour suite against the MSW adapter: msw's getResponse over createScenarioHandlers
// / createReplayHandlers, a second instance beside the suite's reference.
import { mswTarget, operationsSuite, referenceHandlers } from '../operations.suite.js';

operationsSuite({
  name: 'msw getResponse',
  start: async (config) => mswTarget(referenceHandlers(config), 'https://device.test'),
});

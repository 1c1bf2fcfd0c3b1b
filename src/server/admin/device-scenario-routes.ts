import express, { type Response } from 'express';
import { unknownScenario } from '../../routes/errors.js';
import { clientOfDevice, deviceOfClient } from '../../state/client-state.js';
import { steerableClient } from '../../state/device-scenarios.js';
import type { ServerContext } from '../context.js';
import { deviceInLine, type DeviceSteering, type SteeringSource } from './devices.js';
import { sendAnswer, sendError } from './error-answers.js';

/**
 * What steers one device (see {@link DeviceSteering}): the scenario its requests without a prefix
 * or header answer from (its own, else the server's; `null` where no scenario answers) and the
 * planned faults aimed at it. `client` as `clientOf` names it.
 */
function steeringOf(context: ServerContext, client: string): DeviceSteering {
  const own = context.deviceScenarios.get(client);
  return {
    scenario: own ?? (context.scenariosAnswer ? context.active.scenario : null),
    steered: own !== undefined,
    aimedFaults: context.faults
      .list()
      .filter((planned) => planned.device !== undefined && clientOfDevice(planned.device) === client),
  };
}

/**
 * What steers the devices of `context`, for `GET /devices` (see `deviceSummaries`): each device's
 * steering by its `_sdevid` (or other name, see `clientOfDevice`), and the devices steered or aimed
 * at, as people name them (see `deviceOfClient`), so they are listed before their first request.
 */
export function steeringSource(context: ServerContext): SteeringSource {
  return {
    of: (sdevid) => steeringOf(context, clientOfDevice(sdevid)),
    devices: () => {
      const named = new Set(context.deviceScenarios.list().map((steered) => steered.device));
      for (const planned of context.faults.list())
        if (planned.device !== undefined) named.add(deviceOfClient(clientOfDevice(planned.device)));
      return [...named];
    },
  };
}

/** The answer of the calls below: the device as named, and its steering. */
function answer(res: Response, context: ServerContext, client: string): void {
  res.json({ device: deviceOfClient(client), ...steeringOf(context, client) });
}

/**
 * The admin calls that give one device a scenario of its own (mounted under `/__mockvideo`, behind
 * its guard). `DEVICE` is the device's `_sdevid`, or a name `clientOf` gives (`anoyid:<_anoyid>`,
 * `address:<address>`) for a device that sends none:
 * - `GET /devices/DEVICE/scenario`: `{ device, scenario, steered, aimedFaults }` (see {@link steeringOf});
 * - `PUT /devices/DEVICE/scenario` with `{"name": "gallery"}`: the device answers from `gallery` from
 *   its next request on (its sequences of it start again; other devices are untouched); 404 with the
 *   known names (and "Did you mean") for an unknown one, 400 without a string `name`, 409 where no
 *   scenario answers (`record`, `replay` without `--fallback-scenario`), 429 when `MAX_STEERED_DEVICES`
 *   other devices have one;
 * - `DELETE /devices/DEVICE/scenario`: the device follows the server's scenario again.
 *
 * The precedence (a request's header or `/scenarios/NAME` prefix, then the device's, then the
 * server's) is the routes' (`scenarioOf`): docs/qa-and-scenarios.md.
 */
export function deviceScenarioRoutes(context: ServerContext): express.Router {
  const router = express.Router();
  // A name too long throws MockvideoError: the admin router answers it 400.
  const clientOf = (req: express.Request) => steerableClient(String(req.params.device));

  router.get('/devices/:device/scenario', (req, res) => answer(res, context, clientOf(req)));

  router.put('/devices/:device/scenario', (req, res) => {
    const client = clientOf(req);
    const name = (req.body as { name?: unknown } | undefined)?.name;
    if (!context.scenariosAnswer)
      return void sendError(
        res,
        'MV_NO_SCENARIO_ANSWERS',
        `No scenario answers this ${context.mode} server, so no device can be given one. In replay, start with --fallback-scenario NAME: a device's own scenario then answers its misses.`,
      );
    if (typeof name !== 'string')
      return void sendError(res, 'MV_USAGE', 'Send {"name": "<scenario>"}.', { scenarios: context.catalog.names });
    if (!context.catalog.has(name)) return void sendAnswer(res, unknownScenario(name, context.catalog.names));
    const was = context.deviceScenarios.get(client);
    // Past MAX_STEERED_DEVICES it throws MV_TOO_MANY_STEERED: the admin router answers it 429.
    context.deviceScenarios.set(client, name);
    context.responder.resetSequences(name, client);
    context.onAdminChange?.(
      `${deviceInLine(deviceOfClient(client))}: scenario "${name}" now answers its requests (was ${was === undefined ? `the server's "${context.active.scenario}"` : `"${was}"`})`,
    );
    answer(res, context, client);
  });

  router.delete('/devices/:device/scenario', (req, res) => {
    const client = clientOf(req);
    const was = context.deviceScenarios.get(client);
    if (context.deviceScenarios.delete(client))
      context.onAdminChange?.(
        `${deviceInLine(deviceOfClient(client))}: follows the server's scenario "${context.active.scenario}" again (was "${was}")`,
      );
    answer(res, context, client);
  });
  return router;
}

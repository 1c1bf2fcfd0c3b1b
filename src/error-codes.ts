/**
 * The one table of mockvideo's error codes: each code, the HTTP status of the answers that carry it
 * (none for an error that is only thrown or printed), its likely cause and how to solve it. The
 * `code` of every `MockvideoError` and of every error answer (`errorBody`) is a key of it;
 * docs/errors.md is generated from it (`scripts/docs-tables.ts`), and a test keeps both in step
 * with the codes used in `src/`. Pure data, any runtime.
 * @module
 */

/** One row of {@link ERROR_CODES}: Markdown text (a link is relative to `docs/`). */
export interface ErrorCodeInfo {
  /** The HTTP status of every answer with this code; absent for a code that is only thrown or printed. */
  readonly status?: number;
  /** What happened and where mockvideo says it, in one or two sentences. */
  readonly cause: string;
  /** What to do about it. */
  readonly solve: string;
}

/** Every error code, in the order docs/errors.md lists them: thrown first, then the answers. */
export const ERROR_CODES = {
  MV_USAGE: {
    status: 400,
    cause:
      'A flag, argument or option that a command or function cannot take, or a value an admin call cannot take (a body, a query parameter, a fault plan, a clock setting). The message names it and the form it takes.',
    solve:
      'Fix the value the message names. `mockvideo <command> --help` lists the flags, [admin-api.md](admin-api.md) the bodies and queries of the admin calls.',
  },
  MV_SCENARIO_INVALID: {
    cause:
      'A scenario file is not JSON or breaks the scenario format or the contract; the message lists every problem with its file and JSON path.',
    solve: 'Fix the file at the path named; `mockvideo validate` lists every problem at once.',
  },
  MV_SCENARIO_UNKNOWN: {
    status: 404,
    cause:
      'A scenario name that is not loaded: `--scenario`, `createHandlers({ scenario })`, the `/scenarios/<name>/` prefix, the `x-mockvideo-scenario` header, `PUT /__mockvideo/scenario`. The answer lists the loaded names (`scenarios`); a typo of one gets `Did you mean "gallery"?`.',
    solve: 'Use a loaded name (`mockvideo scenarios` lists them), or add your own with `--scenarios-dir`.',
  },
  MV_RECORDING_INVALID: {
    cause:
      'A recording file is corrupt or hand-broken: replay refuses to start and names every broken file and what is wrong with it.',
    solve: 'Fix or delete the file (or record it again), then run `mockvideo validate DIR`.',
  },
  MV_UNMOCKED: {
    cause:
      'A test made requests that no MSW handler answers (`unmockedRequests(server).check()`), even when the app caught the failure; the message lists them.',
    solve:
      'Add a handler for each (`server.use(http.get(…))` or a scenario), or keep the app from making them. See [test-authors.md](test-authors.md).',
  },
  MV_BUNDLE_INVALID: {
    cause: 'A start-up bundle file is not JSON or breaks the format `mockvideo-bundle/1`; the message names the field.',
    solve:
      'Download the bundle again (`GET /__mockvideo/start-ups/ID/bundle` or the dashboard) rather than editing it. See [bundles.md](bundles.md).',
  },
  MV_UNKNOWN_OPERATION: {
    status: 404,
    cause:
      'A path under `/api/g1` that is not one of the six operations (nor `meta/upgrade`); `operations` lists them. `record` never forwards it.',
    solve: "Check the client's path against `operations` and [contract.md](contract.md).",
  },
  MV_NOT_FOUND: {
    status: 404,
    cause:
      'A path outside `/api/g1`, the downloads and `/__mockvideo`: mockvideo serves nothing there; `operations` lists what it serves.',
    solve: 'Point the client at `/api/g1/…`: its base URL may have a path segment too many or too few.',
  },
  MV_METHOD_NOT_ALLOWED: {
    status: 405,
    cause:
      'A method other than GET or HEAD on an operation or a download (every operation is a GET without a body), or other than GET, POST or DELETE on the analytics sink. The `allow` header and `allowed` list what is.',
    solve: 'Send one of the methods in `allowed`.',
  },
  MV_NO_STUB: {
    status: 404,
    cause: "No stub of the scenario's operation matches the request's query; `stubs` shows the `when` of each.",
    solve:
      'Add a stub whose `when.query` the request meets, or one without `when`, to the scenario file. See [qa-and-scenarios.md](qa-and-scenarios.md).',
  },
  MV_NO_RECORDING: {
    status: 404,
    cause:
      'replay: no recording answers the request (with `--match strict`, none matches it exactly). The answer is the near-miss report: the match key, the nearest recordings and each parameter that differs.',
    solve:
      'Record the request (`--record-missing --upstream URL`), answer misses from a scenario (`--fallback-scenario`), or make a parameter that changes on every request volatile. See [record-replay.md](record-replay.md).',
  },
  MV_RECORDING_UNAVAILABLE: {
    status: 500,
    cause:
      'replay: the file of a recording was removed or broken after replay read the folder; `recording` names it. The other recordings keep answering.',
    solve: 'Restore the file, or restart replay (with `--watch`, the default, the folder is read again by itself).',
  },
  MV_REQUEST_INVALID: {
    status: 400,
    cause:
      'A request that breaks the contract: with `--strict-requests`, any contract finding (listed in `findings`); a `meta/upgrade` without a valid `uri`.',
    solve:
      "Fix the client's request as each finding says ([contract.md](contract.md)), or start without `--strict-requests` to answer it and journal the findings.",
  },
  MV_REQUEST_UNREADABLE: {
    status: 400,
    cause:
      'A request mockvideo cannot read: no valid `Host` header, a path with a malformed percent-escape, an admin call whose body is not JSON, an analytics body that holds no records.',
    solve: 'Fix the client: send a `Host` header, write `%` in a path as `%25`, send valid JSON.',
  },
  MV_TARGET_TOO_LONG: {
    status: 414,
    cause:
      'A request target (path and query) longer than mockvideo serves; the message gives the length and the limit.',
    solve: 'Send a shorter query; a parameter that long is likely a bug of the client.',
  },
  MV_FOREIGN_REQUEST: {
    status: 403,
    cause:
      "A request whose `Host` is not a name of this server, or whose `Origin` or `Sec-Fetch-Site` says another site's page sent it (DNS rebinding, a foreign page): the admin app and the analytics sink refuse it, `record` does not forward it.",
    solve:
      'Call mockvideo by a name it knows (localhost, one of its addresses, or a name given with `--allow-host`), from its own dashboard or a tool. See [security.md](security.md).',
  },
  MV_NO_DOWNLOAD: {
    status: 404,
    cause:
      'A placeholder image, plugin package or provider package mockvideo does not serve (a path under `/__mockvideo/media/`, `/__mockvideo/plugins/` or `/__mockvideo/apk/`).',
    solve:
      "Use the URL the scenario's answer gives; images end in `.png`, `.jpg` or `.jpeg`. See [devices.md](devices.md).",
  },
  MV_INTERNAL: {
    status: 500,
    cause:
      "mockvideo itself failed to answer (a fault of ours, never the client's); stderr names the request once. The server keeps serving.",
    solve: 'Report it with the request and the line on stderr.',
  },
  MV_UPSTREAM_TIMEOUT: {
    status: 504,
    cause:
      '`record` or `--record-missing`: the upstream did not answer in full within `--upstream-timeout` seconds (`cause`: `UND_ERR_HEADERS_TIMEOUT`, `UND_ERR_BODY_TIMEOUT`). Nothing was recorded.',
    solve: 'If the service is only slow, raise `--upstream-timeout`.',
  },
  MV_UPSTREAM_UNREACHABLE: {
    status: 502,
    cause:
      'The upstream is down, refused or cut the connection, or lied about its length (`cause`: `ECONNREFUSED`, `ENOTFOUND`, `UND_ERR_SOCKET`, …). Nothing was recorded.',
    solve: 'Check that `--upstream` is right and reachable from this machine.',
  },
  MV_UPSTREAM_CERTIFICATE: {
    status: 502,
    cause:
      "The upstream's TLS certificate does not verify (`cause`: `DEPTH_ZERO_SELF_SIGNED_CERT`, `ERR_TLS_CERT_ALTNAME_INVALID`, …): the request was not sent.",
    solve:
      'Trust its CA with `NODE_EXTRA_CA_CERTS=ca.pem`, or, for a test server you trust, start with `--insecure-upstream`.',
  },
  MV_UPSTREAM_TOO_LARGE: {
    status: 502,
    cause:
      "The upstream's body is over `--max-body-size`, as received or as decoded (`cause`: `EBODYTOOLARGE`, `limit` in bytes). Nothing was recorded.",
    solve: 'Raise `--max-body-size` if the answer is right.',
  },
  MV_UPSTREAM_BAD_ENCODING: {
    status: 502,
    cause:
      "The upstream's body does not decode as its `content-encoding` says (`cause`: `EBADENCODING`). Nothing was recorded.",
    solve: 'Fix the upstream (or the proxy in front of it) that labels the body.',
  },
  MV_ADMIN_FORBIDDEN: {
    status: 403,
    cause:
      'A call that changes something (POST, PUT, PATCH, DELETE under `/__mockvideo`, DELETE of the analytics) from another host: only this machine may steer mockvideo, or a host that sends `Authorization: Bearer <admin token>` to a server started with `--admin-token`.',
    solve: 'Call from this machine, or start with `--admin-token TOKEN` and send the header.',
  },
  MV_NOT_JSON: {
    status: 415,
    cause:
      'A POST or PUT admin call whose body is not labelled `application/json`, or is in a charset or content encoding mockvideo does not read.',
    solve: 'Send `Content-Type: application/json` and a UTF-8 JSON body.',
  },
  MV_BODY_TOO_LARGE: {
    status: 413,
    cause:
      'A body over a limit: an admin call over what it reads, an analytics body or record over what the sink keeps. Nothing of it was kept.',
    solve: 'Send less per request (the message gives the limit).',
  },
  MV_NO_ADMIN_CALL: {
    status: 404,
    cause: 'A path under `/__mockvideo` that is no admin call; `calls` lists every one.',
    solve: 'Use one of `calls`; see [admin-api.md](admin-api.md).',
  },
  MV_NOT_IN_JOURNAL: {
    status: 404,
    cause:
      'A request or start-up id the journal does not hold: it never was, or the journal dropped it (it keeps the last `--journal-size` requests).',
    solve:
      'List the ids with `GET /__mockvideo/requests` or `GET /__mockvideo/start-ups`; raise `--journal-size` to keep more.',
  },
  MV_NOT_FUZZING: {
    status: 404,
    cause: 'A fuzz call (`/__mockvideo/fuzz…`) to a server that is not fuzzing.',
    solve: 'Start it with `mockvideo serve --fuzz [SEED]`. See [fuzz.md](fuzz.md).',
  },
  MV_TOO_MANY_FAULTS: {
    status: 429,
    cause:
      '`POST /__mockvideo/faults` when the most faults mockvideo keeps are planned already (the message says how many).',
    solve: 'Clear them (`DELETE /__mockvideo/faults`) before planning more.',
  },
  MV_TOO_MANY_STEERED: {
    status: 429,
    cause:
      '`PUT /__mockvideo/devices/SDEVID/scenario` (or `--device-scenario`) when the most devices mockvideo keeps have a scenario of their own already (the message says how many).',
    solve: "Give one back to the server's scenario (`DELETE /__mockvideo/devices/SDEVID/scenario`) first.",
  },
  MV_NO_SCENARIO_ANSWERS: {
    status: 409,
    cause:
      'A device given a scenario of its own (`PUT /__mockvideo/devices/SDEVID/scenario`, `--device-scenario`) where no scenario answers devices: `record`, or `replay` without `--fallback-scenario`.',
    solve:
      "In replay, start with `--fallback-scenario NAME`: a device's own scenario then answers the requests no recording answers. See [device-state.md](device-state.md).",
  },
  MV_DASHBOARD_NOT_BUILT: {
    status: 503,
    cause: 'The dashboard page under `/__mockvideo/` is not built (`dist/dashboard/` is missing).',
    solve: 'Run `npm run build`, then restart mockvideo.',
  },
} as const satisfies Record<`MV_${string}`, ErrorCodeInfo>;

/** A stable error code: a key of {@link ERROR_CODES}, e.g. `MV_USAGE`. */
export type ErrorCode = keyof typeof ERROR_CODES;

/** A code that error answers carry: one with an HTTP status in {@link ERROR_CODES}. */
export type AnswerCode = {
  [K in ErrorCode]: (typeof ERROR_CODES)[K] extends { status: number } ? K : never;
}[ErrorCode];

/** True when answers carry `code` (it has an HTTP status in {@link ERROR_CODES}). */
export function isAnswerCode(code: ErrorCode): code is AnswerCode {
  return 'status' in ERROR_CODES[code];
}

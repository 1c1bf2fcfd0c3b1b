// The layer rules of docs/architecture.md, checked by `npm run layers` (dependency-cruiser).
// Layers, lowest first: contract ← the domain (normalise, scenarios, faults, …) ← routes ← adapters
// (msw; the Node edge: server, record, storage, drift) ← cli. An import may only point down.
// Tests (*.test.ts) are left out: a test may reach across layers to set up what it checks.

/** Folders that run in any runtime (browser, React Native, Node): no node:*, Express or msw. */
const DOMAIN =
  'contract|normalise|scenarios|faults|latency|clock|state|media|findings|replay|journal|analytics|verify|fuzz|bundle';
const ANY_RUNTIME = [
  `^src/(${DOMAIN}|routes|msw)/`,
  '^src/(index|arbitraries|scenarios|errors|error-codes|text-table)[.]ts$',
];
/** Folders that need Node: the host and the files, sockets and processes it uses. */
const NODE_EDGE = '^src/(server|record|storage|drift|cli)/|^src/(node|stderr)[.]ts$';

/** A forbidden import: from files whose path matches `from` to files whose path matches `to`. */
function rule(name, comment, from, to) {
  return { name, comment, severity: 'error', from: { path: from }, to: { path: to } };
}

module.exports = {
  forbidden: [
    {
      name: 'contract-is-the-bottom',
      comment: 'The contract imports nothing of ours: every other layer builds on it.',
      severity: 'error',
      from: { path: '^src/contract/' },
      to: { path: '^src/', pathNot: '^src/contract/' },
    },
    {
      name: 'any-runtime-no-node',
      comment: 'Any-runtime folders use no Node built-in (node:* or a bare fs, path, …).',
      severity: 'error',
      from: { path: ANY_RUNTIME },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'any-runtime-no-express-msw',
      comment:
        'Any-runtime folders import neither Express nor msw (the MSW adapter, src/msw, and the entries that export its handlers excepted).',
      severity: 'error',
      from: { path: ANY_RUNTIME, pathNot: '^src/msw/|^src/(index|arbitraries)[.]ts$' },
      to: { path: '^node_modules/(express|msw|@mswjs)/' },
    },
    rule(
      'any-runtime-no-node-edge',
      'Any-runtime folders import nothing from the Node edge (server, record, storage, drift, cli, node.ts).',
      ANY_RUNTIME,
      NODE_EDGE,
    ),
    {
      name: 'domain-below-routes',
      comment: 'The domain folders sit below the routes and their adapters.',
      severity: 'error',
      from: { path: `^src/(${DOMAIN})/` },
      to: { path: '^src/(routes|msw)/' },
    },
    rule(
      'routes-below-adapters',
      'The routes decide; the adapters (src/msw, the Node host) call them, never the other way.',
      '^src/routes/',
      '^src/msw/',
    ),
    rule(
      'node-edge-below-host',
      'Recording, storage and drift are used by the host (src/server) and the CLI, not the reverse.',
      '^src/(record|storage|drift)/',
      '^src/server/',
    ),
    rule(
      'server-listen-at-the-bottom',
      'Inside src/server, listen/ (sockets, TLS, addresses) knows nothing of the host, the admin app or the modes.',
      '^src/server/listen/',
      '^src/server/(host|admin|modes)/',
    ),
    rule(
      'server-host-below-admin',
      'The Node host (host/) carries plans; the admin app (admin/) and the modes (modes/) use it, not the reverse.',
      '^src/server/(host/|context[.]ts$)',
      '^src/server/(admin|modes)/',
    ),
    rule(
      'server-admin-below-modes',
      'The admin app is wired by the modes (modes/), never the reverse.',
      '^src/server/admin/',
      '^src/server/modes/',
    ),
    {
      name: 'nothing-imports-cli',
      comment: 'The CLI is the top: library code never imports it (bin/ runs its bundle).',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/cli/' },
      to: { path: '^src/cli/' },
    },
    {
      name: 'dashboard-stands-alone',
      comment:
        'The dashboard page is bundled for the browser on its own: of ours it reads the contract, and the admin API answers as types only.',
      severity: 'error',
      from: { path: '^src/dashboard/' },
      to: { path: '^src/', pathNot: '^src/(dashboard|contract)/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'no-circular',
      comment:
        'No import cycle (type-only imports aside, as they vanish from the build): a cycle hides which module is the lower one.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '[.]test[.]ts$|[.]generated[.]ts$' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
    },
    skipAnalysisNotInRules: true,
  },
};

// The architecture of the import graph, checked by test/server/architecture.test.ts (and by hand
// with `npx depcruise server src`). Imports run one way: on the server lib/db at the bottom, then
// the shared domain infrastructure, then identity/, then wallet/, trading/ and market/, then the
// routes; on the client lib → components → features → app. No cycle anywhere.

const otherDomains = '^server/domain/(wallet|trading|market)/';
const sharedInfrastructure = '^server/domain/(ledger/|[^/]+[.]ts$)';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'A cycle makes every module in it load and change together; cut it by moving the shared part down.',
      severity: 'error',
      from: { path: '^(server|src)/' },
      to: { circular: true },
    },

    // ─── Server ──────────────────────────────────────────────────────────────────────────────
    {
      name: 'server-lib-db-bottom',
      comment: 'server/lib and server/db are the bottom floor: they know nothing of the domain, routes or plugins.',
      severity: 'error',
      // The seed fills a fresh database through the domain's own functions (operators, currencies,
      // settings), so it is a caller of the domain like a route, not part of the floor below it.
      from: { path: '^server/(lib|db)/', pathNot: '^server/db/seed[.]ts$' },
      to: { path: '^server/(domain|routes|plugins)/' },
    },
    {
      name: 'server-shared-infrastructure-below-domains',
      comment: 'Codes, passwords, sessions, audit, delivery, operators, ledger, uploads... serve every domain and import none.',
      severity: 'error',
      from: { path: sharedInfrastructure },
      to: { path: '^server/domain/(identity|wallet|trading|market)/' },
    },
    {
      name: 'server-identity-below-money',
      comment: 'Identity (a verified person) sits below what needs one: wallet, trading and market ask identity, never the reverse.',
      severity: 'error',
      from: { path: '^server/domain/identity/' },
      to: { path: otherDomains },
    },
    {
      name: 'server-domain-below-routes',
      comment: 'The domain is pure logic without Fastify: it never imports routes or plugins.',
      severity: 'error',
      from: { path: '^server/domain/' },
      to: { path: '^server/(routes|plugins)/' },
    },

    // ─── Client (.dependency-cruiser.client.cjs) ─────────────────────────────────────────────
    ...require('./.dependency-cruiser.client.cjs'),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: 'node_modules' },
    // Type-only imports count: a cycle through types still ties the modules' design together.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'] },
  },
};

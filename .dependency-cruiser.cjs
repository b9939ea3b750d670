// The architecture of the import graph, checked by test/server/architecture.test.ts (and by hand
// with `npx depcruise server src`). Imports run one way: on the server lib/db at the bottom, then
// the shared domain infrastructure, then identity/, then wallet/, trading/ and market/, then the
// routes; on the client lib → components → features → app. No cycle anywhere.

/**
 * Features every other feature may import (a base feature that holds what every page needs, such
 * as the session). Empty until the client helper decides: the session may live in src/api instead.
 */
const baseFeatures = [];

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

    // ─── Client ──────────────────────────────────────────────────────────────────────────────
    {
      name: 'client-no-cross-feature',
      comment: 'A feature does not reach into another feature; what two need moves down into components, lib or api.',
      severity: 'error',
      from: { path: '^src/features/([^/]+)/' },
      to: {
        path: '^src/features/',
        pathNot: ['^src/features/$1/', ...baseFeatures.map((feature) => `^src/features/${feature}/`)],
      },
    },
    {
      name: 'client-lib-bottom',
      comment: 'src/lib holds generic helpers: it imports no components, features, app or admin.',
      severity: 'error',
      from: { path: '^src/lib/' },
      to: { path: '^src/(components|features|app|admin)/' },
    },
    {
      name: 'client-components-below-features',
      comment: 'Shared UI serves the features and knows none of them, nor the app shell.',
      severity: 'error',
      from: { path: '^src/components/' },
      to: { path: '^src/(features|app|admin)/' },
    },
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

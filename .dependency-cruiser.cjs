// The architecture of the import graph, checked by test/server/architecture.test.ts (and by hand
// with `npx depcruise server src`). No cycle anywhere, and every import stays in its folder or goes
// down a floor. The server stands on six floors:
//
//   composition  server/*.ts (main, instance, app, jobs, seed, services' builders, cli, cluster)
//   edge         server/routes, server/plugins (Fastify)
//   programs     server/domain/programs/<program>: products loans rewards competitions ieo team
//                chat content push — a program never imports another program
//   core         server/domain/core: identity < market < wallet < trading < levels
//   kernel       server/domain/kernel: ledger (balances, pools, fundings, the two-operator rule,
//                payouts), shared, messages, audit, sessions, delivery, uploads, operators, services
//   ground       server/db, server/lib (with config.ts)
//
// Where lower code must make higher code act (a credit re-checks a level, a level pays a bonus, an
// open asks a competition), the lower module declares a port (a function type in Services) and
// composition wires it. There is no exemption list. The client's floors are in
// .dependency-cruiser.client.cjs.

const ground = '^server/(db|lib)/';
const composition = '^server/[^/]+[.]ts$';
const edge = '^server/(routes|plugins)/';
const programs = '^server/domain/programs/';
const core = '^server/domain/core/';
const kernel = '^server/domain/kernel/';
/** The core's floors, lowest first: each may import the ones before it. */
const coreFloors = ['identity', 'market', 'wallet', 'trading', 'levels'];

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
      name: 'server-ground-bottom',
      comment: 'server/db and server/lib (config.ts included) are the ground: they know nothing of the domain, the edge or composition.',
      severity: 'error',
      from: { path: ground },
      to: { path: [kernel, core, programs, edge, composition, '^server/domain/'] },
    },
    {
      name: 'server-domain-in-tiers',
      comment: 'Every domain module lives in a tier: server/domain/kernel, core or programs.',
      severity: 'error',
      from: { path: '^server/' },
      to: { path: '^server/domain/(?!(kernel|core|programs)/)' },
    },
    {
      name: 'server-kernel-below-core',
      comment: 'The kernel (ledger, messages, audit, sessions, operators...) serves every domain and imports none of them.',
      severity: 'error',
      from: { path: kernel },
      to: { path: [core, programs, edge, composition] },
    },
    {
      name: 'server-core-below-programs',
      comment: 'The core (identity, market, wallet, trading, levels) knows no program, route or composition.',
      severity: 'error',
      from: { path: core },
      to: { path: [programs, edge, composition] },
    },
    ...coreFloors.slice(0, -1).map((floor, index) => ({
      name: `server-core-${floor}-below-${coreFloors.slice(index + 1).join('-')}`,
      comment: `Inside the core ${coreFloors.join(' < ')}: ${floor} imports only the floors before it.`,
      severity: 'error',
      from: { path: `^server/domain/core/${floor}/` },
      to: { path: `^server/domain/core/(${coreFloors.slice(index + 1).join('|')})/` },
    })),
    {
      name: 'server-program-alone',
      comment: 'A program never imports another program: what two share moves down into the core or the kernel.',
      severity: 'error',
      from: { path: '^server/domain/programs/([^/]+)/' },
      to: { path: programs, pathNot: '^server/domain/programs/$1/' },
    },
    {
      name: 'server-programs-below-edge',
      comment: 'The domain is pure logic without Fastify: it never imports routes, plugins or composition.',
      severity: 'error',
      from: { path: programs },
      to: { path: [edge, composition] },
    },
    {
      name: 'server-edge-below-composition',
      comment: 'Routes and plugins are registered by composition (app.ts) and never import it.',
      severity: 'error',
      from: { path: edge },
      to: { path: composition },
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

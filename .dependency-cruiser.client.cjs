// The client's import rules (src/), spread into .dependency-cruiser.cjs. The client stands on six
// tiers, and an import stays in its folder or goes down a tier:
//
//   app         src/app (store, router, route table, layout, background work); src/admin, the back
//               office, is an app of its own beside it; src/main.tsx and src/pc.ts are the entries
//   features    src/features/<domain>: a domain's pages and what only they use — a feature never
//               imports another feature
//   entities    src/entities/<thing>: what several features share, each thing in its folder
//               (session, market, wallet, trade, invest, competitions, rewards, content, push) —
//               an entity never imports another entity
//   components  src/components: shared UI that knows no domain
//   api         src/api: the one createApi, the protocol, the wire contract, uploads, the socket
//   lib         src/lib: generic helpers, the device's storage
//
// The order is what imports what: the entities draw with shared UI (the investment cards with
// <Amount>, the market data with the offline banner, the second factor's field with the form
// kit) and no shared component needs an entity, so components sit below entities; shared UI reads
// the API's contract and error texts (form errors, uploads), and src/api imports only src/lib.
// There is no exemption list: what two features share moves down into src/entities.

const tiers = ['lib', 'api', 'components', 'entities', 'features', 'app'];
/** Top-level folders and files of src/: the tiers, the back office, the catalogs and the entries. */
const known = `^src/(?!((${tiers.join('|')}|admin|locales)/|(main[.]tsx|pc[.]ts|styles[.]css|pc[.]css)$))`;
const entries = '^src/(main[.]tsx|pc[.]ts)$';

module.exports = [
  {
    name: 'client-in-tiers',
    comment: `Every module of the client lives in a tier (${tiers.join(' < ')}), the back office (src/admin) or the catalogs: `
      + 'nothing imports a module outside them, and a module outside them imports nothing.',
    severity: 'error',
    from: { path: '^src/' },
    to: { path: known },
  },
  {
    name: 'client-in-tiers-from',
    comment: 'A module outside the tiers, the back office and the catalogs (see client-in-tiers) imports nothing.',
    severity: 'error',
    from: { path: known },
    to: {},
  },
  ...tiers.slice(0, -1).map((tier, index) => ({
    name: `client-${tier}-below-${tiers.slice(index + 1).join('-')}`,
    comment: `src/${tier} imports only the tiers below it (${tiers.slice(0, index).join(', ') || 'none'}): `
      + `never ${tiers.slice(index + 1).map((above) => `src/${above}`).join(', ')}, the back office or an entry.`,
    severity: 'error',
    from: { path: `^src/${tier}/` },
    to: { path: [`^src/(${tiers.slice(index + 1).join('|')}|admin)/`, entries] },
  })),
  {
    name: 'client-app-below-entries',
    comment: 'The app shell imports every tier below it, never the back office or an entry.',
    severity: 'error',
    from: { path: '^src/app/' },
    to: { path: ['^src/admin/', entries] },
  },
  {
    name: 'client-admin-own-app',
    comment: 'The back office (admin.html) is an app of its own: it may use lib, api, components and entities, '
      + 'never a feature of the phone app, its shell or its entries.',
    severity: 'error',
    from: { path: '^src/admin/' },
    to: { path: ['^src/(features|app)/', entries] },
  },
  {
    name: 'client-no-cross-feature',
    comment: 'A feature never imports another feature: what two share moves down into src/entities (or components, api, lib).',
    severity: 'error',
    from: { path: '^src/features/([^/]+)/' },
    to: { path: '^src/features/', pathNot: '^src/features/$1/' },
  },
  {
    name: 'client-no-cross-entity',
    comment: 'An entity never imports another entity: each shared thing stands on components, api and lib alone.',
    severity: 'error',
    from: { path: '^src/entities/([^/]+)/' },
    to: { path: '^src/entities/', pathNot: '^src/entities/$1/' },
  },
  {
    name: 'client-no-folder-cycle',
    comment: 'No two folders of the client import each other, directly or round a ring: a folder cycle ties their design together '
      + 'even when no module cycle does. Cut it by moving the shared piece down.',
    severity: 'error',
    scope: 'folder',
    from: { path: '^src/' },
    to: { circular: true },
  },
];

// The client's import rules (src/), spread into .dependency-cruiser.cjs: lib → components → features → app,
// no feature into another.

/**
 * Base features: what the pages of other features show or ask, which any feature may import.
 * `session` is the identity floor: the signed-in person (the user slice, the account, second
 * factor, passkey, OpenID/wallet-signature and verification-state calls, the second factor's
 * field); `market` is the price floor: tickers, candles, their formats and the market catalog,
 * shown by the chart, trading and home pages. A base imports no feature that is not a base (today
 * neither imports any other feature), and the cycle rule keeps bases from leaning on each other.
 */
const baseFeatures = ['session', 'market'];

/**
 * A feature's endpoints file (`<feature>/<name>Api.ts`, endpoints injected into the one createApi)
 * is its public face: another page may read through it (the swap shows the wallet's balances)
 * and the cache tags keep both in step. Everything else in a feature folder is its own. A feature
 * of several areas (features/marketing: competitions, ieo, rewards, team) keeps each area's
 * endpoints file one folder down.
 */
const featureEndpoints = ['^src/features/[^/]+/[^/]+Api[.]ts$', '^src/features/[^/]+/[^/]+/[^/]+Api[.]ts$'];

/**
 * Folders that are parts of one domain: the flash swap (features/swap) is trading's, its calls and
 * error texts live in features/trade (tradeApi.ts, tradeTexts.ts) and it shares the trade catalog.
 */
/**
 * The IEO page (features/marketing, issue 23) draws its offerings with the investment pages' cards,
 * figures, loading and failure states (features/invest/parts.tsx) and loads the invest catalog
 * with its own for their texts.
 */
const domainParts = { swap: ['trade'], marketing: ['invest'] };


module.exports = [
  {
    name: 'client-no-cross-feature',
    comment: 'A feature does not reach into another feature; what two need moves down into components, lib or api, '
      + 'or into a base feature (session, market); another feature\'s endpoints file is public.',
    severity: 'error',
    from: { path: '^src/features/([^/]+)/', pathNot: Object.keys(domainParts).map((part) => `^src/features/${part}/`) },
    to: {
      path: '^src/features/',
      pathNot: ['^src/features/$1/', ...featureEndpoints, ...baseFeatures.map((feature) => `^src/features/${feature}/`)],
    },
  },
  ...Object.entries(domainParts).map(([part, domains]) => ({
    name: `client-no-cross-feature-from-${part}`,
    comment: `features/${part} is a part of ${domains.join(', ')}: it may import that domain, the base features and endpoints files, no other feature.`,
    severity: 'error',
    from: { path: `^src/features/${part}/` },
    to: {
      path: '^src/features/',
      pathNot: [`^src/features/${part}/`, ...featureEndpoints, ...[...domains, ...baseFeatures].map((feature) => `^src/features/${feature}/`)],
    },
  })),
  {
    name: 'client-lib-bottom',
    comment: 'src/lib holds generic helpers: it imports no components, features, app or admin.',
    severity: 'error',
    from: { path: '^src/lib/' },
    to: { path: '^src/(components|features|app|admin)/' },
  },
  {
    name: 'client-api-below-features',
    comment: 'src/api (the one createApi, the protocol, uploads) serves every page and knows none of them.',
    severity: 'error',
    from: { path: '^src/api/' },
    to: { path: '^src/(components|features|app|admin)/' },
  },
  {
    name: 'client-components-below-features',
    comment: 'Shared UI serves the features and knows none of them, nor the app shell.',
    severity: 'error',
    from: { path: '^src/components/' },
    to: { path: '^src/(features|app|admin)/' },
  },
];

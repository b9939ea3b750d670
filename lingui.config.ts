import { defineConfig } from '@lingui/cli';
import { localeCodes, sourceLocale } from './src/lib/locales.ts';

// Catalogs per locale: `messages` holds what the app shell and the first screen need and loads at
// start; the others hold the texts of pages off the first screen and load with those pages
// (lib/i18n.ts, loadFeatureCatalog), so they do not grow the first screen's JS (DESIGN §8):
// `account` the login, registration and personal pages (and the country picker, shown on those
// pages only, and the install card, which loads the catalog when it shows), `market` the market
// and chart pages, `wallet` the asset centre, deposit, withdrawal and record pages, `trade` the contract, options, demo and swap pages, `identity` the verification and security
// pages, `admin` the back office.
// A shared entity's texts go with the pages that show them (src/entities/<thing>, the catalog of
// its domain): entities/session (the signed-in person, which every feature may import) holds
// pieces of the login and personal pages, so its texts are in the account catalog, except the
// identity pages' error messages (session/identityTexts.ts), which stay with those pages.
const identityTextsOfSession = '<rootDir>/src/entities/session/identityTexts.ts';
const accountFeatures = ['<rootDir>/src/features/auth/**', '<rootDir>/src/features/profile/**',
  '<rootDir>/src/entities/session/**', '<rootDir>/src/components/CountryPicker.tsx', '<rootDir>/src/components/InstallOffer.tsx'];
/** The market and chart pages, the market's shared rows and data (entities/market) and the home page's market card. */
const marketFeatures = ['<rootDir>/src/features/market/**', '<rootDir>/src/features/kline/**', '<rootDir>/src/entities/market/**',
  '<rootDir>/src/features/home/HomeMarkets.tsx'];
const walletFeatures = ['<rootDir>/src/features/wallet/**', '<rootDir>/src/entities/wallet/**'];
/**
 * Contracts, second contracts, demo trading (features/trade) and the flash swap (features/swap),
 * their shared calls and texts (entities/trade), with the shared pieces only their histories and
 * receipts show: the history filter bar, sharing a receipt and a tick's source.
 */
const tradeFeatures = ['<rootDir>/src/features/trade/**', '<rootDir>/src/features/swap/**', '<rootDir>/src/entities/trade/**',
  '<rootDir>/src/components/HistoryFilters.tsx',
  '<rootDir>/src/components/share/**', '<rootDir>/src/components/tickSource.ts'];
/** Identity verification (features/identity) and the security centre (features/security). */
const identityFeatures = ['<rootDir>/src/features/identity/**', '<rootDir>/src/features/security/**', identityTextsOfSession];
/**
 * The reading and talking side (issue 21), each loaded with its pages: `content` the notices,
 * announcements, messages, help and news pages (and the home notice strip, loaded when idle),
 * `notifications` the push settings and price alerts (and the push offer shown after a first
 * deposit, trade or chat message, which loads the catalog when it shows), `chat` the support chat.
 */
const contentFeatures = ['<rootDir>/src/features/notices/**'];
const notificationFeatures = ['<rootDir>/src/features/notifications/**', '<rootDir>/src/components/PushOffer.tsx'];
const chatFeatures = ['<rootDir>/src/features/chat/**'];
/**
 * Investment products, mining, bonds and the VIP level page (`invest`), with the investment cards
 * the IEO page borrows (entities/invest), and loans (`loans`), issue 22.
 */
const investFeatures = ['<rootDir>/src/features/invest/**', '<rootDir>/src/entities/invest/**'];
const loanFeatures = ['<rootDir>/src/features/loans/**'];
/** Competitions, IEO, welfare tasks, VIP rewards, red envelopes and team invitation (`marketing`), issue 23. */
const marketingFeatures = ['<rootDir>/src/features/marketing/**'];
/** The operators' back office (/admin.html) is an app of its own: its texts never load in the phone app. */
const adminApp = ['<rootDir>/src/admin/**'];

export default defineConfig({
  sourceLocale,
  locales: [...localeCodes],
  catalogs: [
    { path: '<rootDir>/src/locales/{locale}/messages', include: ['<rootDir>/src'], exclude: [...accountFeatures, ...marketFeatures, ...walletFeatures, ...tradeFeatures, ...identityFeatures, ...contentFeatures, ...notificationFeatures, ...chatFeatures, ...investFeatures, ...loanFeatures, ...marketingFeatures, ...adminApp] },
    { path: '<rootDir>/src/locales/{locale}/account', include: accountFeatures, exclude: [identityTextsOfSession] },
    { path: '<rootDir>/src/locales/{locale}/market', include: marketFeatures },
    { path: '<rootDir>/src/locales/{locale}/wallet', include: walletFeatures },
    { path: '<rootDir>/src/locales/{locale}/trade', include: tradeFeatures },
    { path: '<rootDir>/src/locales/{locale}/identity', include: identityFeatures },
    { path: '<rootDir>/src/locales/{locale}/content', include: contentFeatures },
    { path: '<rootDir>/src/locales/{locale}/notifications', include: notificationFeatures },
    { path: '<rootDir>/src/locales/{locale}/chat', include: chatFeatures },
    { path: '<rootDir>/src/locales/{locale}/invest', include: investFeatures },
    { path: '<rootDir>/src/locales/{locale}/loans', include: loanFeatures },
    { path: '<rootDir>/src/locales/{locale}/marketing', include: marketingFeatures },
    { path: '<rootDir>/src/locales/{locale}/admin', include: adminApp },
  ],
  orderBy: 'messageId',
});

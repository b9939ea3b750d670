import { defineConfig } from '@lingui/cli';
import { localeCodes, sourceLocale } from './src/lib/locales.ts';

export default defineConfig({
  sourceLocale,
  locales: [...localeCodes],
  catalogs: [{ path: '<rootDir>/src/locales/{locale}/messages', include: ['<rootDir>/src'] }],
  orderBy: 'messageId',
});

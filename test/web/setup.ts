// Setup for the web unit tests (jsdom). The source runs Lingui's `i18n._` for every visible
// string, so the source locale is activated with no catalog: each message falls back to its
// English source text, which is what the tests assert on. Nothing else is stubbed globally;
// tests that need a browser API the jsdom lacks (IndexedDB, WebCrypto's subtle) bring their own.
import { i18n } from '@lingui/core';
import { sourceLocale } from '../../src/lib/locales.ts';

i18n.loadAndActivate({ locale: sourceLocale, locales: ['en-US'], messages: {} });

// Setup for the web unit tests (jsdom). The source runs Lingui's `i18n._` for every visible
// string, so the source locale is activated with no catalog: each message falls back to its
// English source text, which is what the tests assert on. Nothing else is stubbed globally;
// tests that need a browser API the jsdom lacks (IndexedDB, WebCrypto's subtle) bring their own.
import { afterAll } from 'vitest';
import { i18n } from '@lingui/core';
import { sourceLocale } from '../../src/lib/locales.ts';

i18n.loadAndActivate({ locale: sourceLocale, locales: ['en-US'], messages: {} });

// A toast or dialog shown by a file's last step loads antd-mobile on first use; the environment
// must outlive that load (src/components/feedback.tsx).
// A file that mocks feedback.tsx (and so loads nothing) has no such export: reading it throws.
afterAll(async () => {
  const feedback = await import('../../src/components/feedback.tsx');
  let settle: (() => Promise<void>) | undefined;
  try {
    settle = feedback.closeFeedback;
  } catch {
    return;
  }
  if (typeof settle === 'function') await settle();
});

// What a file rendered and did not unmount is unmounted before the environment goes, and React's
// scheduled work gets its turn: work left for after the teardown throws "window is not defined"
// (formsPersonalData, once in a full run).
afterAll(async () => {
  const { cleanup } = await import('@testing-library/react');
  cleanup();
  await new Promise((resolve) => setTimeout(resolve, 0));
});

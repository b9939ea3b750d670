// Setup for the web unit tests (jsdom). The source runs Lingui's `i18n._` for every visible
// string, so the source locale is activated with no catalog: each message falls back to its
// English source text, which is what the tests assert on. Nothing else is stubbed globally;
// tests that need a browser API the jsdom lacks (IndexedDB, WebCrypto's subtle) bring their own.
import { afterAll, vi } from 'vitest';
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

// Antd's styles are kept out of the jsdom document: its CSS-in-JS writes thousands of rules, and
// jsdom's getComputedStyle (which every role query calls for each element and its ancestors, to
// tell what is hidden) matched each of them against every element — two thirds of the back
// office's test time. `mock: 'server'` collects the styles in antd's cache instead of the page
// (how antd renders on a server); components, their props, ARIA and inline styles are unchanged.
vi.mock('@testing-library/react', async (importOriginal) => {
  const library = await importOriginal<typeof import('@testing-library/react')>();
  const { createElement } = await import('react');
  const { StyleProvider } = await import('@ant-design/cssinjs');
  type Wrapper = NonNullable<Parameters<typeof library.render>[1]>['wrapper'];
  const withoutStyles = (Inner: Wrapper) => ({ children }: { children: React.ReactNode }) =>
    createElement(StyleProvider, { mock: 'server' }, Inner ? createElement(Inner, null, children) : children);
  const render = (ui: React.ReactNode, options?: Parameters<typeof library.render>[1]) =>
    library.render(ui, { ...options, wrapper: withoutStyles(options?.wrapper) });
  return { ...library, render: render as typeof library.render };
});

// Service worker registration through workbox-window, and the "new version — reload" prompt.
// The worker never activates on its own (no automatic skipWaiting): the user decides.
import type { Workbox } from 'workbox-window';
import { msg } from '@lingui/core/macro';
import { i18n } from '../lib/i18n.ts';
import { confirmDialog } from '../components/feedback.tsx';

let workbox: Workbox | undefined;
let waiting = false;
let prompting = false;

export async function offerReload() {
  if (prompting) return;
  prompting = true;
  const confirmed = await confirmDialog({
    title: i18n._(msg`New version`),
    content: i18n._(msg`A new version of Bourse is available. Reload to use it?`),
    confirmText: i18n._(msg`Reload`),
    cancelText: i18n._(msg`Later`),
  });
  prompting = false;
  if (!confirmed) return;
  if (workbox && waiting) {
    workbox.addEventListener('controlling', () => window.location.reload());
    workbox.messageSkipWaiting();
  } else {
    window.location.reload();
  }
}

export async function registerServiceWorker() {
  if (!('serviceWorker' in navigator) || !import.meta.env.PROD) return;
  const { Workbox } = await import('workbox-window');
  workbox = new Workbox('/sw.js', { scope: '/' });
  workbox.addEventListener('waiting', () => {
    waiting = true;
    void offerReload();
  });
  void workbox.register().catch((error: unknown) => console.warn('[sw] registration failed', error));
}

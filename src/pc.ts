// pc.html: the desktop page. It shows the app inside a phone frame (the address the visitor was
// sent from, kept in sessionStorage) and a QR code to open the app on a phone. Opened on a phone
// (a screen the app would not send here, spec §7), it sends the visitor back into the app instead
// of showing a phone inside the phone.
import { msg } from '@lingui/core/macro';
import { activateLocale, i18n, storedLocale } from './lib/i18n.ts';
import { readSession, storageKeys } from './lib/storage.ts';
import './pc.css';

/** The widest screen the app keeps to itself (app/background.ts, desktopMinWidthPx; spec §7). */
const phoneMaxWidthPx = 575;
const appHome = '/#/home';

/** The app address to go back to: the one the visitor was sent from, if it is one of the app's. */
function appReturnUrl(stored: string | null, origin: string): string {
  if (!stored) return appHome;
  try {
    const url = new URL(stored);
    if (url.origin !== origin || url.pathname.endsWith('pc.html') || !url.hash.startsWith('#/')) return appHome;
    return `/${url.hash}`;
  } catch {
    return appHome;
  }
}

async function start() {
  const returnUrl = appReturnUrl(readSession(storageKeys.pcReturnUrl), location.origin);
  if (window.innerWidth <= phoneMaxWidthPx) {
    // replace: the phone's back button must not bring this page up again.
    location.replace(returnUrl);
    return;
  }
  await activateLocale(storedLocale());
  const lead = document.getElementById('pc-lead');
  if (lead) lead.textContent = i18n._(msg`Crypto, gold and forex in your pocket. Scan the code to open the app on your phone, then add it to your home screen.`);
  const appUrl = `${location.origin}/`;
  const frame = document.getElementById('pc-frame') as HTMLIFrameElement | null;
  // Set here rather than in the page, so a phone sent back to the app never loads the framed copy.
  if (frame) frame.src = returnUrl;
  const link = document.getElementById('pc-link') as HTMLAnchorElement | null;
  if (link) {
    link.href = appUrl;
    link.textContent = appUrl;
  }
  const canvas = document.getElementById('pc-qr') as HTMLCanvasElement | null;
  if (canvas) {
    canvas.setAttribute('aria-label', i18n._(msg`QR code to open Bourse on a phone`));
    const { default: QRCode } = await import('qrcode');
    await QRCode.toCanvas(canvas, appUrl, { width: 180, margin: 1, color: { dark: '#0b3d91', light: '#ffffff' } });
  }
}

void start();

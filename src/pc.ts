// pc.html: the desktop page. It shows the app inside a phone frame (the address the visitor was
// sent from, kept in sessionStorage) and a QR code to open the app on a phone.
import QRCode from 'qrcode';
import { msg } from '@lingui/core/macro';
import { activateLocale, i18n, storedLocale } from './lib/i18n.ts';
import { readSession, storageKeys } from './lib/storage.ts';
import './pc.css';

async function start() {
  await activateLocale(storedLocale());
  const lead = document.getElementById('pc-lead');
  if (lead) lead.textContent = i18n._(msg`Crypto, gold and forex in your pocket. Scan the code to open the app on your phone, then add it to your home screen.`);
  const appUrl = `${location.origin}/`;
  const returnUrl = readSession(storageKeys.pcReturnUrl);
  const frame = document.getElementById('pc-frame') as HTMLIFrameElement | null;
  if (frame && returnUrl && returnUrl.startsWith(location.origin)) frame.src = returnUrl;
  const link = document.getElementById('pc-link') as HTMLAnchorElement | null;
  if (link) {
    link.href = appUrl;
    link.textContent = appUrl;
  }
  const canvas = document.getElementById('pc-qr') as HTMLCanvasElement | null;
  if (canvas) {
    canvas.setAttribute('aria-label', i18n._(msg`QR code to open Bourse on a phone`));
    await QRCode.toCanvas(canvas, appUrl, { width: 180, margin: 1, color: { dark: '#0b3d91', light: '#ffffff' } });
  }
}

void start();

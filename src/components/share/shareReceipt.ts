// Sharing a trading receipt (issue 19): the receipt is drawn on a canvas by hand (symbol, side,
// prices, tick times, profit or loss, the app's name) into a PNG, handed to the Web Share API as a
// file where the browser can share files, else shared as text and a link, else the link is copied
// with a toast. The link is the receipt's in-app address (no token, nothing of the session). The
// texts come in already translated and the figures already formatted (lib/number.ts), so this
// module only lays them out; the browser's pieces are passed in, so tests can replace them.
import { copyText } from '../../lib/clipboard.ts';
import { showToast } from '../feedback.tsx';

export type ReceiptTone = 'up' | 'down' | 'flat';

export interface ReceiptImage {
  /** The record's id: it names the file. */
  id: string;
  /** "Contract receipt", "Option receipt", "Swap receipt". */
  title: string;
  /** "BTC/USDT", or a swap's "BTC → USDT". */
  symbol: string;
  /** "Long 10×", "Up", or nothing. */
  side?: string;
  sideTone?: ReceiptTone;
  /** The headline figure: profit or loss, or what a swap received. */
  result: { label: string; value: string; tone: ReceiptTone };
  /** Label and value lines: entry and exit prices, their ticks' times, fees... */
  rows: ReadonlyArray<{ label: string; value: string }>;
  /** A last line in small print (the price source when simulated, the receipt's close reason). */
  note?: string;
  /** The app's name on the image's header; `shareAppName` when not given. */
  appName?: string;
  /** The receipt's address in the app. */
  url: string;
}

/** The app's name (app/Root.tsx's appName: app imports components, never the reverse). */
export const shareAppName = 'Bourse';

export type ShareOutcome = 'file' | 'text' | 'copied' | 'cancelled' | 'failed';

/** What sharing uses of the browser; `browserShareEnvironment` is the real one. */
export interface ShareEnvironment {
  navigator: { share?: Navigator['share']; canShare?: Navigator['canShare'] };
  render: (image: ReceiptImage) => Promise<Blob | null>;
  copy: (text: string) => Promise<boolean>;
  toast: (text: string) => unknown;
}

export const browserShareEnvironment = (): ShareEnvironment => ({
  navigator, render: renderReceiptPng, copy: copyText, toast: showToast,
});

/** The user closed the share sheet: nothing more is tried. */
const isCancel = (error: unknown) => error instanceof DOMException && error.name === 'AbortError';

export const receiptFileName = (image: ReceiptImage) => `receipt-${image.id.replace(/[^A-Za-z0-9_-]/g, '')}.png`;

/** One line a chat or a note shows: title, symbol, side and the headline figure. */
export const receiptText = (image: ReceiptImage) =>
  [image.title, image.symbol, image.side, `${image.result.label} ${image.result.value}`].filter(Boolean).join(' · ');

/**
 * Shares the receipt: the image as a file where `canShare({ files })` allows, else its text and
 * link, else the link copied (toast `copiedText`, or `failedText` when even that fails). A share
 * refused for another reason than the user's cancel (no activation left, a target that failed)
 * falls through to the next way.
 */
export async function shareReceipt(image: ReceiptImage, texts: { copied: string; failed: string },
  environment: ShareEnvironment = browserShareEnvironment()): Promise<ShareOutcome> {
  const { share, canShare } = environment.navigator;
  const title = `${image.appName ?? shareAppName} · ${image.title}`;
  const text = receiptText(image);
  if (typeof share === 'function') {
    const shareWith = share.bind(environment.navigator as Navigator);
    if (typeof canShare === 'function') {
      const png = await environment.render(image).catch(() => null);
      const files = png ? [new File([png], receiptFileName(image), { type: 'image/png' })] : [];
      if (files.length > 0 && canShare.call(environment.navigator, { files })) {
        try {
          await shareWith({ files, title, text });
          return 'file';
        } catch (error) {
          if (isCancel(error)) return 'cancelled';
        }
      }
    }
    try {
      await shareWith({ title, text, url: image.url });
      return 'text';
    } catch (error) {
      if (isCancel(error)) return 'cancelled';
    }
  }
  const copied = await environment.copy(image.url);
  void environment.toast(copied ? texts.copied : texts.failed);
  return copied ? 'copied' : 'failed';
}

// ─── Drawing ─────────────────────────────────────────────────────────────────────────────────

/** The image's width in pixels: sharp on a phone, small as a PNG (~40 kB). */
export const receiptWidthPx = 1080;
const padding = 72;
const rowHeight = 76;
const font = (size: number, weight = 400) => `${weight} ${size}px system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", sans-serif`;

/** The user's colour convention (styles.css --up/--down: red-up or green-up), else green-up. */
function toneColours(): Record<ReceiptTone, string> {
  const style = typeof document !== 'undefined' ? getComputedStyle(document.documentElement) : undefined;
  const read = (name: string, fallback: string) => style?.getPropertyValue(name).trim() || fallback;
  // Light-theme values: the image has a white card whatever the app's theme.
  const upIsRed = read('--up', '') === read('--red', '#') && read('--up', '') !== '';
  return { up: upIsRed ? '#c42842' : '#067a50', down: upIsRed ? '#067a50' : '#c42842', flat: '#6b7280' };
}

/** Text drawn within `maxWidth`: the font shrinks down to `minSize`, then the end gives way to an ellipsis. */
export function fitText(context: CanvasRenderingContext2D, text: string, maxWidth: number, size: number, weight = 400, minSize = 22) {
  let current = size;
  context.font = font(current, weight);
  while (current > minSize && context.measureText(text).width > maxWidth) {
    current -= 2;
    context.font = font(current, weight);
  }
  if (context.measureText(text).width <= maxWidth) return text;
  let cut = text;
  while (cut.length > 1 && context.measureText(`${cut}…`).width > maxWidth) cut = cut.slice(0, -1);
  return `${cut}…`;
}

/** The receipt's height for its number of rows. */
export const receiptHeightPx = (image: ReceiptImage) => 560 + image.rows.length * rowHeight + (image.note ? 60 : 0);

export function drawReceipt(context: CanvasRenderingContext2D, image: ReceiptImage) {
  const width = receiptWidthPx;
  const height = receiptHeightPx(image);
  const inner = width - 2 * padding;
  const colours = toneColours();
  context.textBaseline = 'alphabetic';
  context.fillStyle = '#f5f6f8';
  context.fillRect(0, 0, width, height);
  // The header band: the app's name and the kind of receipt.
  context.fillStyle = '#0b3d91';
  context.fillRect(0, 0, width, 132);
  context.fillStyle = '#ffffff';
  context.textAlign = 'left';
  context.fillText(fitText(context, image.appName ?? shareAppName, inner / 2, 44, 700), padding, 84);
  context.textAlign = 'right';
  context.fillText(fitText(context, image.title, inner / 2, 32, 400), width - padding, 84);
  // The symbol and side, then the headline figure.
  let y = 228;
  context.textAlign = 'left';
  context.fillStyle = '#1a1d24';
  const symbol = fitText(context, image.symbol, image.side ? inner * 0.6 : inner, 56, 700);
  context.fillText(symbol, padding, y);
  if (image.side) {
    const symbolWidth = context.measureText(symbol).width;
    context.fillStyle = colours[image.sideTone ?? 'flat'];
    context.fillText(fitText(context, image.side, inner - symbolWidth - 24, 40, 600), padding + symbolWidth + 24, y);
  }
  y += 84;
  context.fillStyle = '#6b7280';
  context.fillText(fitText(context, image.result.label, inner, 30), padding, y);
  y += 92;
  context.fillStyle = colours[image.result.tone];
  context.fillText(fitText(context, image.result.value, inner, 84, 700, 40), padding, y);
  y += 48;
  context.fillStyle = '#eceef2';
  context.fillRect(padding, y, inner, 2);
  // The figures: label on the left, value on the right, each shrunk to its half when long.
  for (const row of image.rows) {
    y += rowHeight;
    context.textAlign = 'left';
    context.fillStyle = '#6b7280';
    context.fillText(fitText(context, row.label, inner * 0.42, 30), padding, y - 24);
    context.textAlign = 'right';
    context.fillStyle = '#1a1d24';
    context.fillText(fitText(context, row.value, inner * 0.56, 32, 600), width - padding, y - 24);
  }
  context.textAlign = 'left';
  if (image.note) {
    y += 60;
    context.fillStyle = '#6b7280';
    context.fillText(fitText(context, image.note, inner, 26), padding, y - 20);
  }
  context.fillStyle = '#6b7280';
  context.fillText(fitText(context, image.url, inner, 24, 400, 16), padding, height - 48);
}

/** The receipt as a PNG; null where the browser cannot draw (no 2D canvas). */
export async function renderReceiptPng(image: ReceiptImage): Promise<Blob | null> {
  const canvas = document.createElement('canvas');
  canvas.width = receiptWidthPx;
  canvas.height = receiptHeightPx(image);
  const context = canvas.getContext('2d');
  if (!context) return null;
  drawReceipt(context, image);
  return new Promise((resolve) => canvas.toBlob(resolve, 'image/png'));
}

/**
 * The address of an in-app route ("/heyue?receipt=12") for sharing: origin, path and hash route,
 * never the page's own query or hash (which may carry a login's parameters).
 */
export const appRouteUrl = (route: string) => `${location.origin}${location.pathname}#${route.startsWith('/') ? route : `/${route}`}`;

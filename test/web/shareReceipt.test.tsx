// Sharing a receipt (issue 19): the image as a PNG file where navigator.canShare({ files }) allows,
// else the text and link through navigator.share, else the link copied with a toast. A cancelled
// share sheet stops there; a share that fails otherwise falls through to the next way. The link is
// the receipt's in-app address and carries nothing of the session.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import {
  appRouteUrl, drawReceipt, receiptFileName, shareReceipt, type ReceiptImage, type ShareEnvironment,
} from '../../src/components/share/shareReceipt.ts';
import { ShareButton } from '../../src/components/share/ShareButton.tsx';
import { useLinkedRecord } from '../../src/components/share/useLinkedRecord.ts';
import { positionReceiptRoute } from '../../src/features/trade/receipt/receiptImages.ts';
import { swapReceiptRoute } from '../../src/features/swap/swapReceiptImage.ts';

afterEach(cleanup);

const image: ReceiptImage = {
  id: '42', title: 'Contract receipt', symbol: 'BTC/USDT', side: 'Long 10×', sideTone: 'up',
  result: { label: 'Balance change, fees included', value: '+12.34 USDT', tone: 'up' },
  rows: [{ label: 'Entry price', value: '60,000.00' }, { label: 'Exit price', value: '61,000.00' }],
  url: 'https://bourse.example/#/heyue?receipt=42',
};
const texts = { copied: 'Link copied', failed: 'Fail' };
const png = () => new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], { type: 'image/png' });

function environment(navigatorPart: ShareEnvironment['navigator'], copied = true) {
  const copy = vi.fn(async () => copied);
  const toast = vi.fn();
  const render = vi.fn(async () => png());
  return { env: { navigator: navigatorPart, render, copy, toast } satisfies ShareEnvironment, copy, toast, render };
}
const abort = () => new DOMException('The user cancelled', 'AbortError');

describe('shareReceipt', () => {
  it('shares the PNG as a file when canShare accepts files', async () => {
    const share = vi.fn(async (_data?: ShareData) => undefined);
    const canShare = vi.fn((data?: ShareData) => Boolean(data?.files?.length));
    const { env, copy } = environment({ share, canShare });
    expect(await shareReceipt(image, texts, env)).toBe('file');
    const data = share.mock.calls[0][0]!;
    expect(data.files).toHaveLength(1);
    expect(data.files![0]).toMatchObject({ type: 'image/png', name: receiptFileName(image) });
    expect(data.text).toContain('BTC/USDT');
    expect(canShare).toHaveBeenCalledWith({ files: data.files });
    expect(copy).not.toHaveBeenCalled();
  });

  it('shares the text and link when files cannot be shared', async () => {
    const share = vi.fn(async (_data?: ShareData) => undefined);
    const { env, copy } = environment({ share, canShare: () => false });
    expect(await shareReceipt(image, texts, env)).toBe('text');
    expect(share).toHaveBeenCalledTimes(1);
    expect(share.mock.calls[0][0]).toMatchObject({ url: image.url, text: expect.stringContaining('+12.34 USDT') });
    expect(share.mock.calls[0][0]).not.toHaveProperty('files');
    expect(copy).not.toHaveBeenCalled();
  });

  it('shares the text and link where canShare is missing or the image cannot be drawn', async () => {
    const share = vi.fn(async (_data?: ShareData) => undefined);
    const withoutCanShare = environment({ share });
    expect(await shareReceipt(image, texts, withoutCanShare.env)).toBe('text');
    const canShare = vi.fn(() => true);
    const noCanvas = environment({ share, canShare });
    noCanvas.render.mockResolvedValue(null as unknown as Blob);
    expect(await shareReceipt(image, texts, noCanvas.env)).toBe('text');
    expect(canShare).not.toHaveBeenCalled();
  });

  it('falls back to the text share when the file share fails, and to copying when that fails too', async () => {
    const share = vi.fn(async (data?: ShareData) => {
      if (data?.files) throw new DOMException('No activation', 'NotAllowedError');
    });
    expect(await shareReceipt(image, texts, environment({ share, canShare: () => true }).env)).toBe('text');
    const failing = vi.fn(async () => { throw new TypeError('no target'); });
    const { env, copy, toast } = environment({ share: failing, canShare: () => true });
    expect(await shareReceipt(image, texts, env)).toBe('copied');
    expect(failing).toHaveBeenCalledTimes(2);
    expect(copy).toHaveBeenCalledWith(image.url);
    expect(toast).toHaveBeenCalledWith('Link copied');
  });

  it('stops when the user cancels the share sheet', async () => {
    const share = vi.fn(async () => { throw abort(); });
    const { env, copy, toast } = environment({ share, canShare: () => true });
    expect(await shareReceipt(image, texts, env)).toBe('cancelled');
    expect(share).toHaveBeenCalledTimes(1);
    expect(copy).not.toHaveBeenCalled();
    expect(toast).not.toHaveBeenCalled();
  });

  it('copies the link with a toast without the Web Share API, and says so when even copying fails', async () => {
    const copied = environment({});
    expect(await shareReceipt(image, texts, copied.env)).toBe('copied');
    expect(copied.copy).toHaveBeenCalledWith(image.url);
    expect(copied.toast).toHaveBeenCalledWith('Link copied');
    expect(copied.render).not.toHaveBeenCalled();
    const refused = environment({}, false);
    expect(await shareReceipt(image, texts, refused.env)).toBe('failed');
    expect(refused.toast).toHaveBeenCalledWith('Fail');
  });
});

describe('the receipt link', () => {
  it('is the in-app route on this origin and path, without the page query or anything of the session', () => {
    window.history.replaceState(null, '', '/app/?token=secret-token#/heyue?token=x');
    localStorage.setItem('token', 'secret-token');
    const url = appRouteUrl(positionReceiptRoute({ id: '42', demo: false }));
    expect(url).toBe(`${location.origin}/app/#/heyue?receipt=42`);
    expect(url).not.toContain('secret');
    expect(appRouteUrl(positionReceiptRoute({ id: '7', demo: true }))).toBe(`${location.origin}/app/#/demotrading?receipt=7`);
    expect(appRouteUrl(swapReceiptRoute({ id: '9' }))).toBe(`${location.origin}/app/#/shanduiOrder?id=9`);
    localStorage.removeItem('token');
    window.history.replaceState(null, '', '/');
  });
});

describe('drawReceipt', () => {
  it('writes the symbol, side, result, every row and the app name, shrinking text that does not fit', () => {
    const written: string[] = [];
    const fonts: string[] = [];
    const context = {
      font: '', fillStyle: '', textAlign: 'left', textBaseline: 'alphabetic',
      fillRect: vi.fn(),
      fillText: vi.fn((text: string) => { written.push(text); fonts.push(context.font); }),
      // About 0.6 of the font size per character, like a proportional font.
      measureText: (text: string) => ({ width: text.length * Number(/(\d+)px/.exec(context.font)![1]) * 0.6 }),
    };
    const long = { ...image, rows: [...image.rows, { label: 'Exit tick', value: 'miércoles, 25 de noviembre de 2026, 16:10:35.123 hora estándar' }] };
    drawReceipt(context as unknown as CanvasRenderingContext2D, long);
    expect(written).toEqual(expect.arrayContaining(['Bourse', 'Contract receipt', 'BTC/USDT', 'Long 10×', '+12.34 USDT',
      'Entry price', '60,000.00', 'Exit price', '61,000.00', image.url]));
    const last = written.findIndex((text) => text.startsWith('miércoles'));
    expect(last).toBeGreaterThan(-1);
    // The long value was drawn in a smaller font than the other values, or cut with an ellipsis.
    expect(fonts[last] !== fonts[written.indexOf('61,000.00')] || written[last].endsWith('…')).toBe(true);
  });
});

describe('ShareButton', () => {
  it('builds the receipt when pressed and shares it through the given environment', async () => {
    const share = vi.fn(async (_data?: ShareData) => undefined);
    const { env } = environment({ share, canShare: () => true });
    const build = vi.fn(() => image);
    render(<I18nProvider i18n={i18n}><ShareButton receipt={build} environment={env} /></I18nProvider>);
    expect(build).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Share the receipt' }));
    await waitFor(() => expect(share).toHaveBeenCalledTimes(1));
    expect(build).toHaveBeenCalledTimes(1);
    expect(share.mock.calls[0][0]!.files![0].type).toBe('image/png');
  });
});

describe('useLinkedRecord', () => {
  function List({ id, ids }: { id: string | null; ids: string[] }) {
    useLinkedRecord('data-record-id', id, ids.length);
    return <ul>{ids.map((row) => <li key={row} data-record-id={row}>{row}</li>)}</ul>;
  }

  it('outlines the record a shared link names once the list shows it, and nothing for an id that is not one', () => {
    const { container, rerender } = render(<List id="12" ids={[]} />);
    rerender(<List id="12" ids={['11', '12']} />);
    expect(container.querySelector('[data-record-id="12"]')!.className).toBe('linked-record');
    expect(container.querySelector('[data-record-id="11"]')!.className).toBe('');
    cleanup();
    const other = render(<List id={'"] , li, ["'} ids={['11']} />);
    expect(other.container.querySelector('.linked-record')).toBeNull();
  });
});

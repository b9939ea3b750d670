// Amounts on screen (issue 19 #2, #7): each asset shows one display precision wherever it appears
// (BTC and ETH 8, USDT 2, fiat as its currency has), truncated and grouped, never with zeros past
// it; an amount the user moved keeps its significant digits; the <Amount> figure is one unbreakable
// box that shows the full value on tap, long press or Enter, and always names it to screen readers.
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import type { ReactNode } from 'react';
import { decimalsFor, displayDecimals, formatAssetAmount, formatFullAmount, formatRate, inverseRate } from '../../src/lib/assetPrecision.ts';
import { Amount } from '../../src/components/Amount.tsx';
import { symbolName } from '../../src/lib/symbolName.ts';
import { macdDecimals } from '../../src/features/kline/chartIndicators.ts';

afterEach(cleanup);

const renderWith = (node: ReactNode) => render(<I18nProvider i18n={i18n}>{node}</I18nProvider>);

describe('displayDecimals', () => {
  it('gives each asset its habit: BTC and ETH 8, stable coins 2, fiat as its currency has', () => {
    expect(displayDecimals('BTC')).toBe(8);
    expect(displayDecimals('ETH')).toBe(8);
    expect(displayDecimals('USDT')).toBe(2);
    expect(displayDecimals('usdc')).toBe(2);
    expect(displayDecimals('USD')).toBe(2);
    expect(displayDecimals('TWD')).toBe(2);
    expect(displayDecimals('JPY')).toBe(0);
    expect(displayDecimals('DOGE')).toBe(6);
    expect(displayDecimals(undefined)).toBe(6);
  });

  it('never shows more decimals than the server keeps', () => {
    expect(displayDecimals('BTC', 6)).toBe(6);
    expect(displayDecimals('ETH', 18)).toBe(8);
    expect(displayDecimals('DOGE', 2)).toBe(2);
  });
});

describe('formatAssetAmount', () => {
  it('shows ETH of scale 18 at 8 decimals, without the zeros past them', () => {
    expect(formatAssetAmount('0.000000000000000000', 'ETH', 'en-US', { scale: 18 })).toBe('0.00000000');
    expect(formatAssetAmount('1.234567890123456789', 'ETH', 'en-US', { scale: 18 })).toBe('1.23456789');
  });

  it('shows USDT balances at 2 decimals, truncated and grouped as the language groups', () => {
    expect(formatAssetAmount('100000.000000', 'USDT', 'en-US')).toBe('100,000.00');
    expect(formatAssetAmount('99999.889999', 'USDT', 'es-ES')).toBe('99.999,88');
    expect(formatAssetAmount('1234.5', 'USDT', 'zh-TW')).toBe('1,234.50');
  });

  it('gives one amount one text on consecutive screens: the confirm sheet and the result agree', () => {
    const typed = '500';
    const stored = '500.000000';
    expect(formatAssetAmount(typed, 'USDT', 'en-US', { scale: 6, exact: true })).toBe('500.00');
    expect(formatAssetAmount(stored, 'USDT', 'en-US', { scale: 6, exact: true })).toBe('500.00');
    // The minimum beside the balance: both at the asset's precision.
    expect(formatAssetAmount('1.000000', 'USDT', 'en-US', { scale: 6, exact: true })).toBe('1.00');
    expect(formatAssetAmount('500.000000', 'USDT', 'en-US', { scale: 6 })).toBe('500.00');
  });

  it('keeps the significant digits of an amount the user moved, up to the scale', () => {
    expect(formatAssetAmount('0.001000', 'USDT', 'en-US', { scale: 6, exact: true })).toBe('0.001');
    expect(decimalsFor('31.123456', 'USDT', { scale: 6, exact: true })).toBe(6);
    expect(formatAssetAmount('0.00012', 'BTC', 'en-US', { scale: 8, exact: true })).toBe('0.00012000');
  });

  it('signs, and a decimals override wins over the asset', () => {
    expect(formatAssetAmount('0.41', 'USDT', 'en-US', { signed: true })).toBe('+0.41');
    expect(formatAssetAmount('-0.589', 'USDT', 'en-US', { signed: true })).toBe('-0.58');
    expect(formatAssetAmount('0', 'USDT', 'en-US', { signed: true })).toBe('0.00');
    expect(formatAssetAmount('67244.891', 'USDT', 'en-US', { decimals: 1 })).toBe('67,244.8');
  });

  it('writes the full value with every significant digit and never fewer than the display precision', () => {
    expect(formatFullAmount('99.999988', 'USDT', 'en-US')).toBe('99.999988');
    expect(formatFullAmount('500.000000', 'USDT', 'en-US')).toBe('500.00');
    expect(formatFullAmount('0.000000000000000123', 'ETH', 'en-US')).toBe('0.000000000000000123');
  });
});

describe('<Amount>', () => {
  it('is one nowrap box with the class and the exact value tests look for', () => {
    renderWith(<Amount value="1000.000000" asset="USDT" withAsset />);
    const figure = document.querySelector<HTMLElement>('.amount')!;
    expect(figure.textContent).toBe('1,000.00 USDT');
    expect(figure.dataset.amount).toBe('1000.000000');
    // Nothing hidden: a plain figure, not a focus stop.
    expect(figure.tabIndex).toBe(-1);
    expect(figure.getAttribute('aria-label')).toBeNull();
  });

  it('shows the full value on tap and the short one on a second tap', () => {
    renderWith(<Amount value="99.999988" asset="USDT" />);
    const figure = document.querySelector<HTMLElement>('.amount')!;
    expect(figure.textContent).toBe('99.99');
    expect(figure.title).toBe('99.999988');
    fireEvent.click(figure);
    expect(figure.textContent).toBe('99.999988');
    fireEvent.click(figure);
    expect(figure.textContent).toBe('99.99');
  });

  it('shows the full value on a long press and from the keyboard, and names it to screen readers', () => {
    renderWith(<Amount value="0.123456789" asset="ETH" />);
    const figure = screen.getByLabelText('0.12345678, full value 0.123456789');
    expect(figure.tabIndex).toBe(0);
    fireEvent.contextMenu(figure);
    expect(figure.textContent).toBe('0.123456789');
    fireEvent.keyDown(figure, { key: 'Enter' });
    expect(figure.textContent).toBe('0.12345678');
    fireEvent.keyDown(figure, { key: ' ' });
    expect(figure.textContent).toBe('0.123456789');
  });

  it('signs, masks, and takes a decimals override', () => {
    renderWith(<>
      <Amount value="2.5" asset="USDT" signed data-testid="signed" />
      <Amount value="2.5" asset="USDT" hidden withAsset data-testid="hidden" />
      <Amount value="67244.89" asset="USDT" decimals={2} data-testid="price" />
    </>);
    expect(screen.getByTestId('signed').textContent).toBe('+2.50');
    expect(screen.getByTestId('hidden').textContent).toBe('**** USDT');
    expect(screen.getByTestId('price').textContent).toBe('67,244.89');
  });
});

describe('swap rates', () => {
  it('shows a rate at the quoted asset\'s precision or four significant digits, and says when digits were cut', () => {
    expect(formatRate('0.00001482436968110603116', 'BTC', 'en-US')).toEqual({ text: '0.00001482', cut: true });
    expect(formatRate('67456.789', 'USDT', 'en-US')).toEqual({ text: '67,456.78', cut: true });
    expect(formatRate('67456.789', 'USDT', 'es-ES')).toEqual({ text: '67.456,78', cut: true });
    expect(formatRate('1.001', 'USDC', 'en-US')).toEqual({ text: '1.001', cut: false });
    expect(formatRate('0.999', 'USDT', 'en-US')).toEqual({ text: '0.999', cut: false });
    expect(formatRate('1', 'USDT', 'en-US')).toEqual({ text: '1.00', cut: false });
    expect(formatRate('0.123456789', 'DOGE', 'en-US')).toEqual({ text: '0.123456', cut: true });
  });

  it('inverts a rate exactly, with integers', () => {
    expect(inverseRate('0.00001482436968110603116')).toBe('67456.493700000000001582');
    expect(inverseRate('4')).toBe('0.250000000000000000');
    expect(inverseRate('3')).toBe('0.333333333333333333');
    expect(inverseRate('0')).toBeUndefined();
    expect(inverseRate('abc')).toBeUndefined();
    expect(formatRate(inverseRate('0.00001482436968110603116')!, 'USDT', 'en-US').text).toBe('67,456.49');
  });
});

describe('symbolName', () => {
  it('spells a symbol code as a pair', () => {
    expect(symbolName('BTCUSDT')).toBe('BTC/USDT');
    expect(symbolName('DOGEUSDT')).toBe('DOGE/USDT');
    expect(symbolName('XAUUSD')).toBe('XAU/USD');
    expect(symbolName('ETHBTC')).toBe('ETH/BTC');
    expect(symbolName('BTC/USDT')).toBe('BTC/USDT');
    expect(symbolName('USDT')).toBe('USDT');
  });
});

describe('MACD decimals', () => {
  it('shows a signal line near zero with the symbol\'s price precision and three significant digits of a typical value', () => {
    // DOGE: price precision 5, one large swing and values around 0.00002 (was "DEA 0.00000").
    expect(macdDecimals([0.0012, 0.00002, -0.000021, 0.000019, -0.00002], 5)).toBe(7);
    // BTC: values in the hundreds, price precision 2.
    expect(macdDecimals([-571.8, -526.7, -45], 2)).toBe(2);
    expect(macdDecimals([], 4)).toBe(4);
    expect(macdDecimals([undefined, 0], 0)).toBe(2);
  });
});

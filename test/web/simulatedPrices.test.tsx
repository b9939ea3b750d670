// The "Simulated prices" label (issue 18): shown, with an accessible name that says what it means,
// whenever a price on screen comes from the simulator, and not for venue prices or unknown sources;
// a receipt's tick from the simulator carries it next to its source.
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import type { ReactNode } from 'react';
import { SimulatedPricesLabel } from '../../src/components/SimulatedPricesLabel.tsx';
import { TickRow } from '../../src/features/trade/receipt/TickRow.tsx';

afterEach(cleanup);

const renderWith = (node: ReactNode) => render(<I18nProvider i18n={i18n}>{node}</I18nProvider>);

describe('SimulatedPricesLabel', () => {
  it('says "Simulated prices" as a note when any source is the simulator', () => {
    renderWith(<SimulatedPricesLabel sources={['ccxt:binance', 'simulator']} />);
    const note = screen.getByRole('note', { name: /^Simulated prices\. These prices come from a price simulator, not from a market\.$/ });
    expect(note.textContent).toBe('Simulated prices');
  });

  it('says nothing for venue prices, unknown sources or no prices at all', () => {
    renderWith(<>
      <SimulatedPricesLabel sources={['ccxt:binance']} />
      <SimulatedPricesLabel sources={[undefined]} />
      <SimulatedPricesLabel sources={[]} />
    </>);
    expect(screen.queryByTestId('simulated-prices')).toBeNull();
  });
});

describe('a receipt\'s tick', () => {
  it('names its source and says when it is simulated', () => {
    renderWith(<TickRow tick={{ id: '42', symbol: 'BTCUSDT', price: '60000.00', time: Date.UTC(2026, 5, 1), source: 'simulator' }} />);
    expect(screen.getByText('Price simulator')).toBeTruthy();
    expect(screen.getByRole('note', { name: /^Simulated prices/ })).toBeTruthy();
    cleanup();
    renderWith(<TickRow tick={{ id: '43', symbol: 'BTCUSDT', price: '60000.00', time: Date.UTC(2026, 5, 1), source: 'ccxt:binance' }} />);
    expect(screen.getByText('Binance')).toBeTruthy();
    expect(screen.queryByRole('note')).toBeNull();
  });
});

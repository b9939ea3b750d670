// A small label that says the prices on screen come from the simulator, not from a market venue
// (issue 18): shown wherever prices are shown or traded while the feed of any of them is the
// simulator (tickers and recorded ticks name their `source`), and nothing otherwise.
import { useLingui } from '@lingui/react/macro';
import { simulatorSourceName } from '../api/contract/market.ts';
import './SimulatedPricesLabel.css';

/** Whether any of these sources is the simulator. Unknown (undefined) sources say nothing. */
export const anySimulated = (sources: ReadonlyArray<string | undefined>) => sources.some((source) => source === simulatorSourceName);

export function SimulatedPricesLabel({ sources, className }: { sources: ReadonlyArray<string | undefined>; className?: string }) {
  const { t } = useLingui();
  if (!anySimulated(sources)) return null;
  const label = t`Simulated prices`;
  const explanation = t`These prices come from a price simulator, not from a market.`;
  return (
    <span className={`simulated-prices${className ? ` ${className}` : ''}`} role="note" title={explanation}
      aria-label={`${label}. ${explanation}`} data-testid="simulated-prices">
      {label}
    </span>
  );
}

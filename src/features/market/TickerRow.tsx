// One market row: name (with volume and a "closed" badge), last price that flashes when it
// changes, and the 24 h change. The row opens the chart; the star, when shown, sits beside the
// link so the two controls are never nested.
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { useLingui } from '@lingui/react/macro';
import type { Ticker } from '../../api/contract/market.ts';
import { compareDecimals } from './tickers.ts';
import './market.css';
import { directionOf, formatChangePercent, formatCompact, tickerPrice, type Direction } from './format.ts';

export const flashMs = 800;

/** The direction a value last moved in, for `flashMs` after it moved; undefined otherwise. */
export function useFlash(value: string): Direction | undefined {
  const previous = useRef(value);
  const [flash, setFlash] = useState<Direction>();
  useEffect(() => {
    if (previous.current === value) return;
    const moved = compareDecimals(value, previous.current);
    previous.current = value;
    if (moved === 0) return;
    setFlash(moved > 0 ? 'up' : 'down');
    const timer = setTimeout(() => setFlash(undefined), flashMs);
    return () => clearTimeout(timer);
  }, [value]);
  return flash;
}

export function ChangeBadge({ percent, intl }: { percent: string; intl: string }) {
  return <span className={`change-badge ${directionOf(percent)}`}>{formatChangePercent(percent, intl)}</span>;
}

export function StarButton({ ticker, starred, onToggle }: { ticker: Ticker; starred: boolean; onToggle: (symbol: string) => void }) {
  const { t } = useLingui();
  const name = ticker.displayName;
  return (
    <button type="button" className={`star-button${starred ? ' starred' : ''}`} aria-pressed={starred}
      aria-label={starred ? t`Remove ${name} from favourites` : t`Add ${name} to favourites`}
      onClick={() => onToggle(ticker.symbol)}>
      <svg width="20" height="20" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
        <path d="M12 3.5l2.6 5.3 5.9.9-4.3 4.1 1 5.8-5.2-2.7-5.2 2.7 1-5.8-4.3-4.1 5.9-.9z"
          fill={starred ? 'currentColor' : 'none'} stroke="currentColor" strokeWidth="1.6" strokeLinejoin="round" />
      </svg>
    </button>
  );
}

export function TickerRow({ ticker, intl, star }: {
  ticker: Ticker;
  intl: string;
  star?: { starred: boolean; onToggle: (symbol: string) => void };
}) {
  const { t } = useLingui();
  const flash = useFlash(ticker.last);
  const volume = formatCompact(ticker.quoteVolume24h, intl);
  return (
    <li className="ticker-row" data-symbol={ticker.symbol}>
      {star && <StarButton ticker={ticker} starred={star.starred} onToggle={star.onToggle} />}
      <Link className="ticker-link" to={`/kline?symbol=${encodeURIComponent(ticker.symbol)}`}>
        <span className="ticker-name">
          <span className="ticker-pair">
            <strong>{ticker.base}</strong><span className="ticker-quote">/{ticker.quote}</span>
            {!ticker.open && <span className="closed-badge">{t`Closed`}</span>}
          </span>
          <span className="ticker-volume">{t`Vol ${volume}`}</span>
        </span>
        <span className={`ticker-price${flash ? ` flash-${flash}` : ''}`} data-testid="ticker-price">{tickerPrice(ticker, intl)}</span>
        <ChangeBadge percent={ticker.changePercent24h} intl={intl} />
      </Link>
    </li>
  );
}

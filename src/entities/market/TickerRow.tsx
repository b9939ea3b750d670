// One market row: the market's mark, its pair with its full name and volume, the last price that
// flashes when it changes, and the 24 h change; a closed market says so and when it reopens, below
// its last session's figures. The row opens the chart; the star, when shown, sits beside the link
// so the two controls are never nested. On a narrow phone the name gives way (the full name
// first, then the quote currency, each cut with an ellipsis but whole for screen readers); the
// price, the volume and the change are never cut (market.css).
import { memo, useEffect, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { useLingui } from '@lingui/react/macro';
import type { Ticker } from '../../api/contract/market.ts';
import { compareDecimals } from './tickers.ts';
import './market.css';
import { directionOf, formatReopening, tickerPrice, type Direction } from './format.ts';
import { formatCompact, formatPercent } from '../../lib/number.ts';
import { markOf, marketNames } from './assets.ts';

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
  return <span className={`change-badge ${directionOf(percent)}`}>{formatPercent(percent, intl)}</span>;
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

/** The market's mark: a coloured disc with its sign, decoration only (the row names the market). */
export function MarketMark({ ticker }: { ticker: Ticker }) {
  const mark = markOf(ticker.symbol, ticker.base);
  return <span className="market-mark" style={{ backgroundColor: mark.colour }} aria-hidden="true">{mark.sign}</span>;
}

/** "Closed — reopens Sun 11:00 PM", or "Closed" when the server does not say when. */
export function useClosedText(ticker: Ticker, intl: string): string | undefined {
  const { t } = useLingui();
  if (ticker.open) return undefined;
  if (ticker.reopensAt === undefined) return t`Closed`;
  const time = formatReopening(ticker.reopensAt, intl);
  return t`Closed — reopens ${time}`;
}

/**
 * Memoised: a tick replaces only the tickers that changed (the cache keeps the others' objects),
 * so the rows of the markets that did not move are not drawn again every second.
 */
export const TickerRow = memo(function TickerRow({ ticker, intl, star }: {
  ticker: Ticker;
  intl: string;
  star?: { starred: boolean; onToggle: (symbol: string) => void };
}) {
  const { t, i18n } = useLingui();
  const flash = useFlash(ticker.last);
  const volume = formatCompact(ticker.quoteVolume24h, intl);
  const name = marketNames[ticker.symbol];
  const closed = useClosedText(ticker, intl);
  return (
    <li className="ticker-row" data-symbol={ticker.symbol}>
      {star && <StarButton ticker={ticker} starred={star.starred} onToggle={star.onToggle} />}
      <Link className="ticker-link" to={`/kline?symbol=${encodeURIComponent(ticker.symbol)}`}>
        <MarketMark ticker={ticker} />
        <span className="ticker-name">
          <span className="ticker-pair">
            <strong>{ticker.base}</strong><span className="ticker-quote">/{ticker.quote}</span>
          </span>
          <span className="ticker-detail">
            {name && <span className="ticker-full-name">{i18n._(name)}</span>}
            <span className="ticker-volume">{t`Vol ${volume}`}</span>
          </span>
        </span>
        <span className={`ticker-price${flash ? ` flash-${flash}` : ''}`} data-testid="ticker-price">{tickerPrice(ticker, intl)}</span>
        <ChangeBadge percent={ticker.changePercent24h} intl={intl} />
        {closed && <span className="ticker-closed" data-testid="ticker-closed">{closed}</span>}
      </Link>
    </li>
  );
});

// The trading pages' texts (contracts, options, demo trading, flash swap) and the messages of
// trading's error codes, in a catalog of their own that loads with those pages (lingui.config.ts).
// Each trading page exports `prepare = prepareTradeTexts` for the router.
import { msg } from '@lingui/core/macro';
import type { Messages } from '@lingui/core';
import { registerErrorMessages } from '../../api/errorMessages.ts';
import { registerErrorMessagesWithValues } from '../../api/errorValues.ts';
import { loadFeatureCatalog } from '../../lib/i18n.ts';

registerErrorMessages({
  symbol_not_tradable: msg`This symbol cannot be traded at the moment.`,
  market_closed: msg`The market is closed. Trading resumes when it opens.`,
  price_unavailable: msg`No current price for this symbol. Please try again in a moment.`,
  leverage_not_offered: msg`This leverage is not offered for the symbol.`,
  size_required: msg`Please enter either a margin or a quantity.`,
  price_invalid: msg`Please enter a valid price.`,
  take_profit_wrong_side: msg`The take-profit price is on the wrong side of the current price.`,
  stop_loss_wrong_side: msg`The stop-loss price is on the wrong side of the current price.`,
  position_not_found: msg`This position was not found.`,
  position_closed: msg`This position is already closed.`,
  client_order_id_reused: msg`This order was already sent with different details. Please try again.`,
  duration_not_offered: msg`This duration is not offered for the symbol.`,
  stake_too_small: msg`The amount is below the minimum.`,
  stake_too_large: msg`The amount is above the maximum.`,
  second_order_not_found: msg`This order was not found.`,
  swap_pair_unavailable: msg`These two currencies cannot be swapped.`,
  swap_unavailable: msg`Swaps are not available at the moment.`,
  quote_not_found: msg`This quote was not found. Please ask for a new one.`,
  quote_expired: msg`The quote has expired. Please ask for a new one.`,
  quote_used: msg`This quote has already been used.`,
  demo_positions_open: msg`Close your demo positions and wait for your demo contracts to settle before resetting.`,
  balance_insufficient: msg`The balance does not cover the amount and the fee.`,
  simulated_feed_trading_disabled: msg`This symbol's prices are simulated and real trading on them is switched off. Demo trading is still open.`,
  position_competition_ended: msg`The competition has ended: its positions are closed at the price of its end, whatever the price since.`,
});

// The size refusals name the bound the server sends with them (issue 19 #8).
registerErrorMessagesWithValues({
  quantity_too_small: { message: msg({ message: 'The minimum quantity is {quantityMin}.' }), values: ['quantityMin'] },
  quantity_too_large: { message: msg({ message: 'The maximum quantity is {quantityMax}.' }), values: ['quantityMax'] },
  margin_too_small: { message: msg({ message: 'The minimum margin is {marginMin} USDT.' }), values: ['marginMin'] },
  margin_too_large: { message: msg({ message: 'The maximum margin is {marginMax} USDT.' }), values: ['marginMax'] },
});

export const prepareTradeTexts = () => loadFeatureCatalog('trade',
  (code) => import(`../../locales/${code}/trade.po`) as Promise<{ messages: Messages }>)
  // Offline in a language whose catalog was never fetched: show the page rather than nothing.
  .catch((error: unknown) => console.warn('[i18n] trade texts unavailable', error));

// The stable error codes of trading (issue 10): contracts, second contracts, flash swap and demo
// funds, spread into common.ts's errorCodes. A file of its own (importing nothing), as
// withdrawalErrors.ts, so the shared list grows by one line and no import cycle forms.
export const tradingErrorCodes = [
  'symbol_not_tradable', 'market_closed', 'price_unavailable', 'leverage_not_offered', 'size_required',
  'quantity_too_small', 'quantity_too_large', 'margin_too_small', 'margin_too_large', 'price_invalid',
  'take_profit_wrong_side', 'stop_loss_wrong_side', 'position_not_found', 'position_closed', 'client_order_id_reused',
  'duration_not_offered', 'stake_too_small', 'stake_too_large', 'second_order_not_found', 'swap_pair_unavailable',
  'swap_unavailable', 'quote_not_found', 'quote_expired', 'quote_used', 'demo_positions_open', 'trade_settings_invalid',
  'simulated_feed_trading_disabled', 'position_competition_ended',
] as const;

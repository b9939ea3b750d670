// The investment pages' texts (products, mining, bonds, VIP level) and the messages of the
// products' error codes, in a catalog of their own (`invest`, lingui.config.ts) that loads with
// the pages; each page exports `prepare = prepareInvestTexts`.
import { msg } from '@lingui/core/macro';
import type { Messages } from '@lingui/core';
import { registerErrorMessages } from '../../api/errorMessages.ts';
import { loadFeatureCatalog } from '../../lib/i18n.ts';

// `balance_insufficient` is the wallet's code with the wallet's message (amount and fee); the buy
// forms show their own words for it in place (see purchaseRefusalText) instead of replacing it here.
registerErrorMessages({
  product_not_found: msg`This product was not found.`,
  product_not_open: msg`This product is not on sale at the moment.`,
  product_sold_out: msg`Sold out: the product's reserve cannot cover the return of this amount.`,
  product_level_required: msg`This product needs a higher VIP level.`,
  product_amount_out_of_range: msg`The amount is outside this product's purchase limits.`,
  product_user_cap: msg`This would take you over the most one person may hold in this product.`,
  product_wrong_kind: msg`This product is not bought this way.`,
  product_kyc_required: msg`Verify your identity to buy investment products.`,
  order_not_found: msg`This order was not found.`,
  order_not_redeemable: msg`This order cannot be redeemed early.`,
  amount_empty: msg`Please enter an amount.`,
  amount_negative: msg`The amount cannot be negative.`,
  amount_exponent: msg`Please write the amount with digits only.`,
  amount_malformed: msg`Please enter a valid amount.`,
  amount_too_many_decimals: msg`The amount has too many decimal places for this currency.`,
  amount_too_large: msg`The amount is too large.`,
  amount_not_positive: msg`The amount must be greater than zero.`,
});

export const prepareInvestTexts = () => loadFeatureCatalog('invest',
  (code) => import(`../../locales/${code}/invest.po`) as Promise<{ messages: Messages }>)
  // Offline in a language whose catalog was never fetched: show the page rather than nothing.
  .catch((error: unknown) => console.warn('[i18n] invest texts unavailable', error));

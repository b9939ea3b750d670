// The wallet pages' texts (asset centre, deposit, withdrawal, settlement info, records, ledger) and
// the messages of the wallet's error codes, in a catalog of their own that loads with those pages
// (lingui.config.ts). Each wallet page exports `prepare = prepareWalletTexts` for the router.
import { msg } from '@lingui/core/macro';
import type { Messages } from '@lingui/core';
import { registerErrorMessages } from '../../api/errorMessages.ts';
import { loadFeatureCatalog } from '../../lib/i18n.ts';

registerErrorMessages({
  currency_unknown: msg`This currency is not available.`,
  network_unknown: msg`This network is not available for the currency.`,
  deposit_unavailable: msg`Deposits of this currency on this network are not available at the moment.`,
  amount_empty: msg`Please enter an amount.`,
  amount_negative: msg`The amount cannot be negative.`,
  amount_exponent: msg`Please write the amount with digits only.`,
  amount_malformed: msg`Please enter a valid amount.`,
  amount_too_many_decimals: msg`The amount has too many decimal places for this currency.`,
  amount_too_large: msg`The amount is too large.`,
  amount_not_positive: msg`The amount must be greater than zero.`,
  amount_below_minimum: msg`The amount is below the minimum.`,
  file_missing: msg`Please attach a photo of the payment proof.`,
  file_type_unsupported: msg`Please choose a JPEG, PNG or WebP image, or a PDF.`,
  file_too_large: msg`The file is too large.`,
  file_too_many_pixels: msg`The image is too large. Please choose a smaller one.`,
  file_not_found: msg`The uploaded file was not found. Please attach it again.`,
  record_already_decided: msg`This request has already been decided.`,
  deposit_duplicate: msg`This proof or transaction already backs another deposit request.`,
  balance_insufficient: msg`The balance does not cover the amount and the fee.`,
  address_invalid: msg`This address is not valid. Please check it.`,
  address_wrong_network: msg`This address belongs to another network. Please choose the network it was made for.`,
  card_number_invalid: msg`This card or account number is not valid.`,
  destinations_too_many: msg`You have bound the most accounts allowed. Please edit one instead.`,
  destination_not_found: msg`This payment account was not found.`,
  destination_currency_mismatch: msg`This address is for another currency.`,
  destination_required: msg`Please bind a bank card or a wallet address before withdrawing.`,
  withdraw_password_required: msg`Please set a withdrawal password before withdrawing.`,
  withdraw_password_invalid: msg`The withdrawal password is wrong.`,
  withdraw_password_no_contact: msg`Your account has no e-mail or phone to send the code to.`,
  withdrawal_not_found: msg`This withdrawal was not found.`,
  withdrawal_unavailable: msg`Withdrawals of this currency on this network are not available at the moment.`,
});

export const prepareWalletTexts = () => loadFeatureCatalog('wallet',
  (code) => import(`../../locales/${code}/wallet.po`) as Promise<{ messages: Messages }>)
  // Offline in a language whose catalog was never fetched: show the page rather than nothing.
  .catch((error: unknown) => console.warn('[i18n] wallet texts unavailable', error));

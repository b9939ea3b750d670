// The loan pages' texts, in a catalog of their own (`loans`, lingui.config.ts) that loads with the
// pages, and the messages of the loans' error codes (contract/investErrors.ts); each page exports
// `prepare = prepareLoanTexts`.
import { msg } from '@lingui/core/macro';
import type { Messages } from '@lingui/core';
import { registerErrorMessages } from '../../api/errorMessages.ts';
import { loadFeatureCatalog } from '../../lib/i18n.ts';

registerErrorMessages({
  loan_setting_not_found: msg`This loan offer was not found.`,
  loan_disabled: msg`This loan offer is not available at the moment.`,
  loan_amount_out_of_range: msg`The amount is outside the offer's limits.`,
  loan_days_out_of_range: msg`The number of days is outside the offer's limits.`,
  loan_over_limit: msg`The amount is above your available credit limit.`,
  loan_already_open: msg`You already have a loan of this type under review or running.`,
  loan_terms_changed: msg`The terms have changed since you read them. Please read and sign the agreement again.`,
  signature_invalid: msg`The signature could not be used. Please sign again.`,
  signature_too_large: msg`The signature image is too large. Please sign again on the pad.`,
  signature_empty: msg`The signature is too small or empty. Please sign with your full signature.`,
  collateral_unsupported: msg`This collateral asset is not accepted.`,
  collateral_insufficient: msg`The collateral is not enough for this loan at the current price.`,
  loan_not_found: msg`This loan was not found.`,
  loan_not_active: msg`This loan is not running.`,
  repay_exceeds_owed: msg`The amount is more than you owe.`,
  loan_decided: msg`This application has already been decided.`,
});

export const prepareLoanTexts = () => loadFeatureCatalog('loans',
  (code) => import(`../../locales/${code}/loans.po`) as Promise<{ messages: Messages }>)
  // Offline in a language whose catalog was never fetched: show the page rather than nothing.
  .catch((error: unknown) => console.warn('[i18n] loan texts unavailable', error));

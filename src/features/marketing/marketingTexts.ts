// The texts of the competition, IEO, welfare, red-envelope and team pages (issue 23) and the
// messages of their error codes (contract/marketingErrors.ts), in a catalog of their own
// (`marketing`, lingui.config.ts) that loads with the pages; each page exports
// `prepare = prepareMarketingTexts`.
import { msg } from '@lingui/core/macro';
import type { Messages } from '@lingui/core';
import { registerErrorMessages } from '../../api/errorMessages.ts';
import { loadFeatureCatalog } from '../../lib/i18n.ts';

registerErrorMessages({
  competition_not_found: msg`This competition was not found.`,
  competition_closed: msg`This competition is no longer open to join.`,
  competition_joined_already: msg`You have already joined this competition.`,
  competition_full: msg`This competition is full.`,
  competition_not_joined: msg`You have not joined this competition.`,
  competition_ended: msg`This competition has ended.`,
  competition_busy: msg`You are already taking part in another competition.`,
  competition_symbol_not_allowed: msg`This symbol cannot be traded in this competition.`,
  competition_not_running: msg`This competition is not in progress.`,
  ieo_not_found: msg`This token offering was not found.`,
  ieo_not_issuing: msg`Subscriptions to this offering are not open.`,
  ieo_applied_already: msg`You have already applied to this offering.`,
  ieo_lots_over_cap: msg`This is more lots than one person may apply for.`,
  ieo_not_won: msg`You have no winning lots to pay for in this offering.`,
  ieo_paid_already: msg`You have already paid for your lots.`,
  ieo_pay_deadline_passed: msg`The payment deadline has passed: the allocation has lapsed.`,
  ieo_wrong_state: msg`This is not possible at this stage of the offering.`,
  ieo_token_exists: msg`A token with this code already exists.`,
  ieo_lot_amount_inexact: msg`One lot must cost an exact amount in the payment currency.`,
  ieo_dates_invalid: msg`The dates must follow each other: opening, closing, payment deadline, listing.`,
  ieo_person_applied_already: msg`Another account verified with your identity document has already applied: one person applies once.`,
  task_not_found: msg`This task was not found.`,
  task_not_done: msg`This task is not complete yet.`,
  task_claimed: msg`You have already claimed this reward.`,
  envelope_not_found: msg`This red envelope was not found.`,
  envelope_opened: msg`This red envelope has already been opened.`,
  envelope_expired: msg`This red envelope has expired.`,
  envelopes_issued_this_week: msg`This week's red envelopes have already been issued.`,
  checkin_done_today: msg`You have already checked in today.`,
  pool_insufficient: msg`The reward pool cannot pay this at the moment. Please try again later.`,
  verification_required: msg`This needs an approved basic identity verification. Please complete basic verification first.`,
  short_link_not_found: msg`This link is not valid.`,
  invite_self: msg`You cannot use your own invitation code.`,
  invite_cycle: msg`This invitation code cannot be used for your account.`,
  inviter_bound: msg`Your account already has an inviter.`,
});

export const prepareMarketingTexts = () => loadFeatureCatalog('marketing',
  (code) => import(`../../locales/${code}/marketing.po`) as Promise<{ messages: Messages }>)
  // Offline in a language whose catalog was never fetched: show the page rather than nothing.
  .catch((error: unknown) => console.warn('[i18n] marketing texts unavailable', error));

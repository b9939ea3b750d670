// What a push says, in English: the title and body a notification shows when the worker has no
// better wording. The payload also carries the message's kind and params, so the app (which knows
// the user's language) can word it itself; the English text is what every worker can fall back on.
import type { MessageKind } from '../../../../src/api/contract/content.ts';

type Params = Record<string, string>;
const p = (params: Params, key: string, fallback = '') => params[key] ?? fallback;
const amount = (params: Params) => [p(params, 'amount'), p(params, 'currency')].filter(Boolean).join(' ');

const texts: Record<MessageKind, (params: Params) => { title: string; body: string }> = {
  deposit_credited: (params) => ({ title: 'Deposit credited', body: `${amount(params) || 'Your deposit'} has been credited to your account.` }),
  deposit_rejected: (params) => ({ title: 'Deposit rejected', body: `${amount(params) || 'Your deposit'} was not credited.${params.reason ? ` ${params.reason}` : ''}` }),
  withdrawal_paid: (params) => ({ title: 'Withdrawal paid', body: `${amount(params) || 'Your withdrawal'} has been paid out.` }),
  withdrawal_rejected: (params) => ({ title: 'Withdrawal rejected', body: `${amount(params) || 'Your withdrawal'} was rejected and returned to your balance.${params.reason ? ` ${params.reason}` : ''}` }),
  kyc_approved: () => ({ title: 'Verification approved', body: 'Your identity verification has been approved.' }),
  kyc_rejected: (params) => ({ title: 'Verification rejected', body: `Your identity verification was not approved.${params.reason ? ` ${params.reason}` : ''}` }),
  position_take_profit: (params) => ({ title: 'Take-profit hit', body: `Your ${p(params, 'symbol', 'position')} position was closed at its take-profit${params.price ? ` (${params.price})` : ''}.` }),
  position_stop_loss: (params) => ({ title: 'Stop-loss hit', body: `Your ${p(params, 'symbol', 'position')} position was closed at its stop-loss${params.price ? ` (${params.price})` : ''}.` }),
  position_liquidated: (params) => ({ title: 'Position liquidated', body: `Your ${p(params, 'symbol', 'position')} position was liquidated.` }),
  second_contract_settled: (params) => ({ title: 'Option settled', body: `Your ${p(params, 'symbol', 'option')} option has been settled.` }),
  price_alert: (params) => ({
    title: `${p(params, 'symbol', 'Price alert')} ${params.direction === 'below' ? 'fell below' : 'rose above'} ${p(params, 'price')}`.trim(),
    body: params.last ? `The last price is ${params.last}.` : 'Your price alert was reached.',
  }),
  chat_reply: (params) => ({ title: 'Support replied', body: p(params, 'text', 'You have a new message from support.') }),
  security_alert: (params) => ({ title: 'Security alert', body: p(params, 'text', 'There was a change to your account\'s security.') }),
  announcement: (params) => ({ title: p(params, 'title', 'New announcement'), body: p(params, 'summary', 'Open the app to read it.') }),
  loan_approved: (params) => ({ title: 'Loan approved', body: `${amount({ ...params, currency: p(params, 'asset') }) || 'Your loan'} has been paid to your balance.` }),
  loan_rejected: (params) => ({ title: 'Loan application rejected', body: `Your loan application was not approved.${params.reason ? ` ${params.reason}` : ''} You can apply again.` }),
  loan_margin_call: (params) => ({ title: 'Margin call on your loan', body: `Your loan-to-value is ${p(params, 'ltv')} %. Add collateral or repay before it reaches ${p(params, 'liquidationLtv')} %.` }),
  loan_liquidated: (params) => ({ title: 'Loan liquidated', body: `Your collateral was sold at ${p(params, 'price')} to repay your loan.` }),
  loan_overdue: () => ({ title: 'Loan overdue', body: 'Your loan is past its term and a daily penalty now applies. Please repay it.' }),
  product_matured: (params) => ({
    title: 'Investment matured',
    body: `Your ${p(params, 'product', 'investment')} order has ended.${params.amount ? ` ${amount({ ...params, currency: p(params, 'asset') })} was returned to your balance.` : ''}`
      + `${params.income ? ` It earned ${amount({ amount: params.income, currency: p(params, 'incomeAsset', p(params, 'asset')) })} in all.` : ''}`,
  }),
  product_refunded: (params) => ({
    title: 'Investment refunded',
    body: `${p(params, 'product', 'The bond')} did not reach its raise target, so ${amount({ ...params, currency: p(params, 'asset') }) || 'your subscription'} was refunded to your balance.`,
  }),
  product_frozen: (params) => ({
    title: 'Investment order frozen',
    body: `Your ${p(params, 'product', 'investment')} order was frozen and earns nothing until it is unfrozen.${params.reason ? ` ${params.reason}` : ''}`,
  }),
  product_unfrozen: (params) => ({ title: 'Investment order unfrozen', body: `Your ${p(params, 'product', 'investment')} order was unfrozen; the returns it missed will be paid.` }),
};

/** English title and body for an internal message's push. */
export function messageText(kind: string, params: Params): { title: string; body: string } {
  const make = (texts as Record<string, ((params: Params) => { title: string; body: string }) | undefined>)[kind];
  return make ? make(params) : { title: 'New message', body: 'Open the app to read it.' };
}

// The words of an internal message (issue 21): the server stores a kind and the values it shows
// (`params`: amounts as decimal strings, symbols, reasons; the names the server's writers use:
// deposits.ts, withdrawals.ts, kyc.ts, positions.ts, secondSettlement.ts, push/alerts.ts, chat,
// loans, products/jobs.ts and products/orders.ts),
// and the app words it in the user's language. Each kind has a title and, when the values it names
// are all there, a sentence; a reason the operator wrote is shown as written, after "Reason:". An unknown kind (a newer
// server) gets a generic title instead of nothing.
import { msg } from '@lingui/core/macro';
import type { I18n, MessageDescriptor } from '@lingui/core';
import type { UserMessage } from '../../api/contract/content.ts';

interface KindText {
  title: MessageDescriptor;
  /** The sentence, with the params it names; shown only when every one of them is there. */
  body?: MessageDescriptor;
  needs?: readonly string[];
}

const money = ['amount', 'currency'] as const;

export const messageTexts: Record<string, KindText> = {
  deposit_credited: { title: msg`Deposit credited`, body: msg({ message: '{amount} {currency} has been credited to your account.' }), needs: money },
  deposit_rejected: { title: msg`Deposit rejected`, body: msg({ message: 'Your deposit of {amount} {currency} was not accepted.' }), needs: money },
  withdrawal_paid: { title: msg`Withdrawal paid`, body: msg({ message: 'Your withdrawal of {amount} {currency} has been paid out.' }), needs: money },
  withdrawal_rejected: {
    title: msg`Withdrawal rejected`, body: msg({ message: 'Your withdrawal of {amount} {currency} was rejected and the amount returned to your balance.' }), needs: money,
  },
  kyc_approved: { title: msg`Identity verified`, body: msg({ message: 'Your identity verification (level {level}) has been approved.' }), needs: ['level'] },
  kyc_rejected: { title: msg`Identity verification rejected`, body: msg`Your identity verification was not approved. You can submit it again.` },
  position_take_profit: {
    title: msg`Take-profit reached`, body: msg({ message: 'Your {symbol} position was closed at the take-profit price, {closePrice}. Profit and loss: {pnl} USDT.' }),
    needs: ['symbol', 'closePrice', 'pnl'],
  },
  position_stop_loss: {
    title: msg`Stop-loss reached`, body: msg({ message: 'Your {symbol} position was closed at the stop-loss price, {closePrice}. Profit and loss: {pnl} USDT.' }),
    needs: ['symbol', 'closePrice', 'pnl'],
  },
  position_liquidated: {
    title: msg`Position liquidated`, body: msg({ message: 'Your {symbol} position was closed at {closePrice} because its margin ran out.' }),
    needs: ['symbol', 'closePrice'],
  },
  second_contract_settled: { title: msg`Option settled`, body: msg({ message: 'Your {symbol} option of {amount} has settled. Payout: {payout}.' }), needs: ['symbol', 'amount', 'payout'] },
  price_alert: { title: msg`Price alert`, body: msg({ message: '{symbol} has reached {price}.' }), needs: ['symbol', 'price'] },
  chat_reply: { title: msg`New reply from support`, body: msg({ message: 'Support: {preview}' }), needs: ['preview'] },
  security_alert: { title: msg`Security alert`, body: msg`There was a sign-in or a security change on your account. If it was not you, change your password now.` },
  announcement: { title: msg`New announcement`, body: msg({ message: '{title}' }), needs: ['title'] },
  loan_approved: { title: msg`Loan approved`, body: msg({ message: '{amount} {asset} has been paid to your balance.' }), needs: ['amount', 'asset'] },
  loan_rejected: { title: msg`Loan application rejected`, body: msg`Your loan application was not approved. You can apply again.` },
  loan_margin_call: {
    title: msg`Margin call on your loan`,
    body: msg({ message: 'Your loan-to-value is {ltv} %. Add collateral or repay before it reaches {liquidationLtv} %.' }), needs: ['ltv', 'liquidationLtv'],
  },
  loan_liquidated: {
    title: msg`Loan liquidated`,
    body: msg({ message: 'Your collateral ({collateral}) was sold at {price} to repay your loan; {returned} {asset} was returned to your balance.' }),
    needs: ['collateral', 'price', 'returned', 'asset'],
  },
  loan_overdue: { title: msg`Loan overdue`, body: msg`Your loan is past its term and a daily penalty now applies. Please repay it.` },
  // Investment products: `product` is the product's name as the server has it (English).
  product_matured: {
    title: msg`Investment matured`,
    body: msg({ message: 'Your {product} order has ended and {amount} {asset} was returned to your balance.' }), needs: ['product', 'amount', 'asset'],
  },
  product_refunded: {
    title: msg`Investment refunded`,
    body: msg({ message: '{product} did not reach its raise target, so your {amount} {asset} was refunded to your balance in full.' }),
    needs: ['product', 'amount', 'asset'],
  },
  product_frozen: {
    title: msg`Investment order frozen`, body: msg({ message: 'Your {product} order has been frozen and earns nothing until it is unfrozen.' }), needs: ['product'],
  },
  product_unfrozen: {
    title: msg`Investment order unfrozen`, body: msg({ message: 'Your {product} order has been unfrozen; the returns it missed will be paid.' }), needs: ['product'],
  },
};

const unknownKind: KindText = { title: msg`New message` };
/** The kinds whose `reason` an operator wrote for the user (elsewhere `reason` is a code, e.g. take_profit). */
const operatorReasonKinds = new Set(['deposit_rejected', 'withdrawal_rejected', 'kyc_rejected', 'loan_rejected', 'product_frozen']);

export interface MessageWords { title: string; body?: string; reason?: string }

/** The title, sentence and reason of a message in the active language. */
export function wordMessage(i18n: I18n, message: Pick<UserMessage, 'kind' | 'params'>): MessageWords {
  const text = messageTexts[message.kind] ?? unknownKind;
  const params = message.params ?? {};
  const complete = (text.needs ?? []).every((name) => typeof params[name] === 'string' && params[name] !== '');
  const reason = operatorReasonKinds.has(message.kind) ? params.reason?.trim() : undefined;
  return {
    title: i18n._(text.title),
    ...(text.body && complete ? { body: i18n._(text.body.id, params, { message: text.body.message }) } : {}),
    ...(reason ? { reason } : {}),
  };
}

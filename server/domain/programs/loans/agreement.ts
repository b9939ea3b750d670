// The loan agreement's terms (issue 22): deterministic text built from the offer and the figures,
// so the server recomputes exactly what the user read and signed and compares SHA-256 hashes. No
// time or random part goes in: the same user, offer and figures always give the same terms, and a
// change of the offer's rates or LTVs changes the hash (the application is then refused with
// loan_terms_changed). The terms are English; the PDF embeds only Latin text (Helvetica).
import { createHash } from 'node:crypto';
import { formatAmount } from '../../kernel/ledger/amounts.ts';
import type { LoanSettingRow } from './settings.ts';
import { bpToPercent, dailyInterest, dailyPenalty, ppmToPercent, totalInterest, type LoanTerms } from './math.ts';

export interface Borrower {
  id: bigint;
  /** E-mail, phone (+country) or user name: how the account is known. */
  contact: string;
}

export interface AgreementFigures {
  amount: bigint;
  days: number;
  /** Pledge: collateral in the collateral asset's atomic units. */
  collateral?: bigint;
}

export interface AgreementScales { loan: number; collateral?: number }

export const sha256Hex = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

export function agreementTerms(borrower: Borrower, setting: LoanSettingRow, figures: AgreementFigures, scales: AgreementScales): string {
  const loanTerms: LoanTerms = {
    amount: figures.amount, days: figures.days, dailyRatePpm: setting.dailyRatePpm, penaltyRatePpm: setting.penaltyRatePpm,
  };
  const money = (value: bigint) => `${formatAmount(value, scales.loan)} ${setting.asset}`;
  const lines = [
    `${setting.type === 'pledge' ? 'PLEDGE' : 'CREDIT'} LOAN AGREEMENT`,
    '',
    'Lender: Bourse (the platform).',
    `Borrower: user ${borrower.id} (${borrower.contact}).`,
    `Offer: ${setting.id} (${setting.type} loan in ${setting.asset}).`,
    '',
    `1. Amount. The lender lends ${money(figures.amount)} to the borrower, paid into the borrower's spot account when the application is approved.`,
    `2. Term. ${figures.days} days from the approval. The loan is due ${figures.days} x 24 hours after it is paid out.`,
    `3. Interest. ${ppmToPercent(setting.dailyRatePpm)} % of the amount a day, ${money(dailyInterest(loanTerms))} a day, ` +
      `${money(totalInterest(loanTerms))} for the whole term. Interest is charged for every day used, and a day that has started counts as a whole day. ` +
      'It is charged on the amount borrowed, whether or not part of it was repaid early; repaying in full stops it.',
    `4. Overdue. After the due time a penalty of ${ppmToPercent(setting.penaltyRatePpm)} % of the amount a day ` +
      `(${money(dailyPenalty(loanTerms))}) is added to the interest for every day or started day until the loan is repaid.`,
    '5. Repayment. The borrower may repay early, in part or in full, from the spot account. A repayment pays what is owed: the amount, the interest charged so far and any penalty.',
  ];
  if (setting.type === 'pledge') {
    const collateral = `${formatAmount(figures.collateral ?? 0n, scales.collateral ?? 0)} ${setting.collateralAsset}`;
    lines.push(
      `6. Collateral. The borrower locks ${collateral} as collateral when applying. It is released if the application is rejected and when the loan is repaid in full.`,
      `7. Loan-to-value (LTV) is what is owed divided by the collateral's value at the platform's feed price of ${setting.collateralAsset}/USDT. ` +
        `The LTV at the application may not exceed ${bpToPercent(setting.initialLtvBp ?? 0)} %.`,
      `8. Margin call. When the LTV reaches ${bpToPercent(setting.marginCallLtvBp ?? 0)} % the borrower is notified once and may add collateral or repay.`,
      `9. Liquidation. When the LTV reaches ${bpToPercent(setting.liquidationLtvBp ?? 0)} % the whole collateral is sold to the platform at the recorded tick price. ` +
        `The proceeds repay what is owed, a liquidation fee of ${bpToPercent(setting.liquidationFeeBp ?? 0)} % of the proceeds is kept by the platform, ` +
        'and the rest is paid into the borrower\'s spot account. If the proceeds do not cover what is owed, the platform bears the difference and takes no fee. ' +
        'The borrower receives a receipt citing the tick.',
    );
  }
  lines.push(
    '',
    'By signing, the borrower confirms having read these terms. The signed agreement (these terms, the signature, the time of signing and the SHA-256 hash of these terms) can be downloaded by the borrower and the platform.',
  );
  return lines.join('\n');
}

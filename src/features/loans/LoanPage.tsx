// Placeholder until the loans pages land (issue 22): replaced by the real page.
import { prepareLoanTexts } from './loansTexts.ts';

export const prepare = prepareLoanTexts;

export default function LoanPage() {
  return null;
}

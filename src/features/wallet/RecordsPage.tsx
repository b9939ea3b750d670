// Being built (issue 9): replaced by the page itself before this lands.
import { prepareWalletTexts } from './walletTexts.ts';

export const prepare = prepareWalletTexts;

export default function RecordsPage() {
  return null;
}

// Placeholder until the invest pages land (issue 22): replaced by the real page.
import { prepareInvestTexts } from './investTexts.ts';

export const prepare = prepareInvestTexts;

export default function MiningListPage() {
  return null;
}

// Placeholder until its owner builds it during issue 11.
import { prepareIdentityTexts } from './identityTexts.ts';

export const prepare = prepareIdentityTexts;

export default function BasicVerificationPage() {
  return null;
}

// anquanZhongxin (ours): the account's security in one page — Google Authenticator, passkeys,
// linked wallets and OpenID providers, the sessions and devices, and the login history. Each
// section is a component of its own area (features/security/*Section.tsx).
import { useLingui } from '@lingui/react/macro';
import { PageHeader } from '../../components/PageHeader.tsx';
import { prepareIdentityTexts } from '../../entities/session/identityTexts.ts';
import { prepareAccountTexts } from '../../lib/catalogs.ts';
import { TwoFactorSection } from './TwoFactorSection.tsx';
import { PasskeysSection } from './PasskeysSection.tsx';
import { LinkedLoginsSection } from './LinkedLoginsSection.tsx';
import { SessionsSection } from './SessionsSection.tsx';
import './security.css';

// The second factor's field (entities/session/SecondFactorFields.tsx) brings its texts in the account catalog.
export const prepare = async () => { await Promise.all([prepareIdentityTexts(), prepareAccountTexts()]); };

export default function SecurityPage() {
  const { t } = useLingui();
  return (
    <div className="security-page">
      <PageHeader title={t`Account security`} />
      <TwoFactorSection />
      <PasskeysSection />
      <LinkedLoginsSection />
      <SessionsSection />
    </div>
  );
}

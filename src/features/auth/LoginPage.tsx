// /login: log in (password, e-mail code, phone code), register, forgot password and guest login,
// switched by the `mode` query parameter so each view can be linked to.
import { useState } from 'react';
import { useLocation, useSearchParams, useNavigate } from 'react-router-dom';
import { NoticeBar, Tabs } from 'antd-mobile';
import { GlobalOutline } from 'antd-mobile-icons';
import { useLingui } from '@lingui/react/macro';
import { LanguagePicker } from '../../components/LanguagePicker.tsx';
import { PasswordLogin, type PasswordCredentials } from './PasswordLogin.tsx';
import { CodeLogin } from './CodeLogin.tsx';
import { RegisterForm } from './RegisterForm.tsx';
import { ForgotForm } from './ForgotForm.tsx';
import { GuestForm } from './GuestForm.tsx';
import { OtherLogins } from './OtherLogins.tsx';
import { GoogleCodeStep } from './GoogleCodeStep.tsx';
import { prepareAccountTexts } from '../../lib/catalogs.ts';

export type LoginMode = 'login' | 'register' | 'forgot' | 'guest';
const modes: LoginMode[] = ['login', 'register', 'forgot', 'guest'];

/** The router awaits this before the page shows: its texts. */
export const prepare = prepareAccountTexts;

export default function LoginPage() {
  const { t } = useLingui();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  // Set by the API client when a live session got 401 (see main.tsx).
  const sessionEnded = (useLocation().state as { sessionEnded?: boolean } | null)?.sessionEnded === true;
  const mode = modes.find((value) => value === params.get('mode')) ?? 'login';
  // A login of an account with Google Authenticator bound, whichever its first factor (secondStep.ts).
  const loginTicket = params.get('loginTicket');
  // The same step when a server gives no ticket: the password is kept in memory until it is sent with the code.
  const [passwordStep, setPasswordStep] = useState<PasswordCredentials>();
  const secondStep = Boolean(loginTicket) || passwordStep !== undefined;
  const [method, setMethod] = useState('password');
  const [languageOpen, setLanguageOpen] = useState(false);
  const [prefill, setPrefill] = useState('');
  const go = (next: LoginMode, account = '') => {
    setPrefill(account);
    setParams(next === 'login' ? {} : { mode: next }, { replace: true });
  };
  const titles: Record<LoginMode, string> = {
    login: t`Log in`, register: t`Register`, forgot: t`Forgot password`, guest: t`Guest login`,
  };

  return (
    <div className="auth-page">
      <div className="auth-top">
        <button type="button" className="link-button" onClick={() => navigate('/home')}>{t`Home`}</button>
        <button type="button" className="link-button" aria-label={t`Language`} onClick={() => setLanguageOpen(true)}>
          <GlobalOutline /> {t`Language`}
        </button>
      </div>
      <div className="auth-brand" aria-hidden="true">
        <img src="/favicon.svg" alt="" width={56} height={56} />
        <span>Bourse</span>
      </div>
      <h1 className="auth-title">{secondStep ? t`Two-step verification` : titles[mode]}</h1>

      {loginTicket && <GoogleCodeStep loginTicket={loginTicket} onBack={() => setParams({}, { replace: true })} />}
      {!loginTicket && passwordStep && <GoogleCodeStep {...passwordStep} onBack={() => setPasswordStep(undefined)} />}
      {!secondStep && mode === 'login' && (
        <>
          {sessionEnded && (
            <div role="status" data-testid="session-ended">
              <NoticeBar color="info" wrap
                content={t`Your session has ended: it expired, or it was ended from another device or by a password change. Please log in again.`} />
            </div>
          )}
          <Tabs activeKey={method} onChange={setMethod}>
            <Tabs.Tab title={t`Password`} key="password">
              <PasswordLogin initialAccount={prefill} onSecondStep={setPasswordStep} />
            </Tabs.Tab>
            <Tabs.Tab title={t`E-mail code`} key="email"><CodeLogin channel="email" /></Tabs.Tab>
            <Tabs.Tab title={t`Phone code`} key="phone"><CodeLogin channel="phone" /></Tabs.Tab>
          </Tabs>
          <div className="auth-links">
            <button type="button" className="link-button" onClick={() => go('forgot')}>{t`Forgot password?`}</button>
            <button type="button" className="link-button" onClick={() => go('register')}>{t`Create an account`}</button>
          </div>
          <div className="auth-links auth-links-center">
            <button type="button" className="link-button" onClick={() => go('guest')}>{t`Continue as a guest`}</button>
          </div>
          <OtherLogins />
        </>
      )}
      {!secondStep && mode === 'register' && <RegisterForm onLogin={() => go('login')} />}
      {!secondStep && mode === 'forgot' && <ForgotForm onDone={() => go('login')} />}
      {!secondStep && mode === 'guest' && <GuestForm onExisting={(account) => go('login', account)} />}
      {!secondStep && mode !== 'login' && (
        <div className="auth-links auth-links-center">
          <button type="button" className="link-button" onClick={() => go('login')}>{t`Back to log in`}</button>
        </div>
      )}
      <LanguagePicker visible={languageOpen} onClose={() => setLanguageOpen(false)} />
    </div>
  );
}

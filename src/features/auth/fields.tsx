// Inputs shared by the login, register, forgot-password and guest forms.
import { useEffect, useState } from 'react';
import { Button, Input } from 'antd-mobile';
import { useLingui } from '@lingui/react/macro';
import { useDispatch, useSelector } from 'react-redux';
import { CountryPicker } from '../../components/CountryPicker.tsx';
import { countryChosen, type UserState } from './userSlice.ts';

/** The "+1" button before a phone number, opening the country picker; the choice is remembered. */
export function CountryCodeButton() {
  const { t } = useLingui();
  const [open, setOpen] = useState(false);
  const country = useSelector((state: { user: UserState }) => state.user.countryInfo);
  const dispatch = useDispatch();
  return (
    <>
      <button type="button" className="country-code" aria-label={t`Country code +${country.phone_code}, change`}
        onClick={() => setOpen(true)}>
        +{country.phone_code} ▾
      </button>
      <CountryPicker visible={open} onClose={() => setOpen(false)} onSelect={(value) => dispatch(countryChosen(value))} />
    </>
  );
}

export const useCountryCode = () => useSelector((state: { user: UserState }) => state.user.countryInfo.phone_code);

/** A code input with a "Send code" button that counts down before another send is allowed. */
export function CodeInput({ value, onChange, onSend }: {
  value?: string; onChange?: (value: string) => void;
  /** Sends the code; resolves to the seconds to wait before resending, or undefined on failure. */
  onSend: () => Promise<number | undefined>;
}) {
  const { t } = useLingui();
  const [waitSeconds, setWaitSeconds] = useState(0);
  const [sending, setSending] = useState(false);
  useEffect(() => {
    if (waitSeconds <= 0) return;
    const timer = setTimeout(() => setWaitSeconds((seconds) => seconds - 1), 1000);
    return () => clearTimeout(timer);
  }, [waitSeconds]);
  return (
    <div className="input-with-button">
      <Input value={value} onChange={onChange} inputMode="numeric" maxLength={6} autoComplete="one-time-code"
        placeholder={t`Verification code`} aria-label={t`Verification code`} />
      <Button size="small" color="primary" fill="outline" disabled={waitSeconds > 0} loading={sending}
        onClick={async () => {
          setSending(true);
          try {
            const wait = await onSend();
            if (wait) setWaitSeconds(wait);
          } finally {
            setSending(false);
          }
        }}>
        {waitSeconds > 0 ? t`Resend in ${waitSeconds}s` : t`Send code`}
      </Button>
    </div>
  );
}

// Inputs shared by the login, register, forgot-password and guest forms.
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { Input } from 'antd-mobile';
import { useLingui } from '@lingui/react/macro';
import { useDispatch, useSelector } from 'react-redux';
import { countryFlag, regionName } from '../../lib/countryLabel.ts';
import { intlOf } from '../../lib/locales.ts';
import { countryChosen, type UserState } from '../../entities/session/userSlice.ts';
import './countryCode.css';

// The picker and the phone number rule (rules.ts) bring every country and libphonenumber's
// metadata: they load when a phone field shows, not with the e-mail forms.
const loadCountryPicker = () => import('../../components/CountryPicker.tsx');
const preloadPhoneCode = () => Promise.all([loadCountryPicker(), import('../../lib/phoneNumbers.ts')]);
const CountryPicker = lazy(() => loadCountryPicker().then((module) => ({ default: module.CountryPicker })));

/** The "🇺🇸 +1 ▾" button before a phone number, opening the country picker; the choice is remembered. */
export function CountryCodeButton() {
  const { t, i18n } = useLingui();
  const [open, setOpen] = useState(false);
  const [picked, setPicked] = useState(false);
  const country = useCountry();
  const dispatch = useDispatch();
  useEffect(() => void preloadPhoneCode().catch(() => undefined), []);
  const name = regionName(country.country_code, intlOf(i18n.locale)) ?? country.english_name;
  const code = country.phone_code;
  return (
    <>
      <button type="button" className="country-code" aria-label={t`Country code: ${name} +${code}. Change`}
        aria-haspopup="dialog" aria-expanded={open}
        onClick={() => {
          setOpen(true);
          setPicked(true);
        }}>
        <span className="country-code-flag" aria-hidden="true">{countryFlag(country.country_code)}</span>
        +{code} <span aria-hidden="true">▾</span>
      </button>
      {picked && (
        <Suspense fallback={null}>
          <CountryPicker visible={open} selected={country.country_code} onClose={() => setOpen(false)}
            onSelect={(value) => dispatch(countryChosen(value))} />
        </Suspense>
      )}
    </>
  );
}

/**
 * A text field with the country code button on its left, on one line; the button shows while
 * `withCountryCode` holds (the login field takes e-mails too and shows it for digits only). A form
 * control: Form.Item gives it value, onChange and the id its label points at.
 */
export function CountryCodeInput({ value, onChange, id, withCountryCode = true, ...input }: {
  value?: string; onChange?: (value: string) => void; id?: string; withCountryCode?: boolean;
  placeholder?: string; autoComplete?: string; inputMode?: 'tel' | 'text';
}) {
  const countryCode = useCountry().country_code;
  const chosen = useRef(countryCode);
  useEffect(() => {
    // A number checked against the old country is checked again against the new one.
    if (chosen.current === countryCode) return;
    chosen.current = countryCode;
    if (value) onChange?.(value);
  }, [countryCode, value, onChange]);
  return (
    <div className="country-code-input">
      {withCountryCode && <CountryCodeButton />}
      <Input id={id} value={value} onChange={onChange} clearable {...input} />
    </div>
  );
}

export const useCountry = () => useSelector((state: { user: UserState }) => state.user.countryInfo);
export const useCountryCode = () => useCountry().phone_code;


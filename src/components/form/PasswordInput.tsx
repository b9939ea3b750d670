// A password field with an eye button that shows what was typed, for every password the app
// asks for (login, registration, reset, change, later the withdrawal password). The button is a
// toggle: its name stays "Show password" and aria-pressed says whether the text is shown.
import { useState } from 'react';
import { Input, type InputProps } from 'antd-mobile';
import { EyeInvisibleOutline, EyeOutline } from 'antd-mobile-icons';
import { useLingui } from '@lingui/react/macro';
import './form.css';

export function PasswordInput(props: Omit<InputProps, 'type'>) {
  const { t } = useLingui();
  const [shown, setShown] = useState(false);
  return (
    <div className="password-input">
      <Input {...props} type={shown ? 'text' : 'password'} />
      <button type="button" className="password-toggle" aria-label={t`Show password`} aria-pressed={shown}
        // Keeps the caret (and the phone's keyboard) in the field while the button is pressed.
        onMouseDown={(event) => event.preventDefault()}
        onClick={() => setShown((value) => !value)}>
        {shown ? <EyeOutline aria-hidden="true" /> : <EyeInvisibleOutline aria-hidden="true" />}
      </button>
    </div>
  );
}

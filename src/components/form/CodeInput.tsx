// A verification-code input with a "Send code" button that counts down the server's wait before
// another send is allowed: the account forms' and the withdrawal password's.
import { useEffect, useState } from 'react';
import { Button, Input } from 'antd-mobile';
import { useLingui } from '@lingui/react/macro';

export function CodeInput({ value, onChange, onSend, id, placeholder }: {
  value?: string; onChange?: (value: string) => void; id?: string;
  /** Shown in the empty field, and its accessible name. */
  placeholder: string;
  /** Sends the code; resolves to the seconds to wait before resending, or undefined on failure. */
  onSend: () => Promise<number | undefined>;
}) {
  const { t } = useLingui();
  const [waitSeconds, setWaitSeconds] = useState(0);
  const [sending, setSending] = useState(false);
  useEffect(() => {
    if (waitSeconds <= 0) return undefined;
    const timer = setTimeout(() => setWaitSeconds((seconds) => seconds - 1), 1000);
    return () => clearTimeout(timer);
  }, [waitSeconds]);
  return (
    <div className="input-with-button">
      <Input id={id} value={value} onChange={onChange} inputMode="numeric" maxLength={6} autoComplete="one-time-code"
        placeholder={placeholder} aria-label={placeholder} />
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

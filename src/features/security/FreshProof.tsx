// "Confirm it's you" before a way into the account is added (issue 18): the server refuses adding a
// passkey, linking a provider or a wallet with password_required or google_code_required when the
// session alone is not enough (security.ts FreshProof). The action is tried without a proof first,
// so an account that needs none (a wallet account without e-mail) is not asked; when the server asks,
// this form collects the password or the Google Authenticator (or a recovery) code and runs the same
// action again with it.
import { useState } from 'react';
import { Button, Input } from 'antd-mobile';
import { useLingui } from '@lingui/react/macro';
import type { ApiError } from '../../api/baseQuery.ts';
import type { FreshProof } from '../../api/contract/security.ts';
import { failureText } from '../../api/errorMessages.ts';
import { FormError } from '../../components/form/FormError.tsx';
import { PasswordInput } from '../../components/form/PasswordInput.tsx';
import './freshProof.css';
// A wrong password answers credentials_invalid, whose message the account calls register.
import '../../entities/session/accountErrorTexts.ts';

export type ProofKind = 'password' | 'google';
/** An action that takes a proof and answers the call's refusal, or undefined when it went through. */
export type ProofAction = (proof: FreshProof) => Promise<unknown>;

function proofKindOf(error: unknown): ProofKind | undefined {
  const code = (error as Partial<ApiError> | undefined)?.kind === 'api' ? (error as { error?: string }).error : undefined;
  if (code === 'password_required') return 'password';
  if (code === 'google_code_required') return 'google';
  return undefined;
}

/**
 * `run(action)` tries the action without a proof; a refusal asking for one opens the form (`asked`)
 * and answers undefined, any other refusal is answered for the caller to show.
 */
export function useFreshProof() {
  const [asked, setAsked] = useState<{ kind: ProofKind; action: ProofAction }>();
  const run = async (action: ProofAction): Promise<unknown> => {
    const error = await action({});
    const kind = proofKindOf(error);
    if (!kind) return error;
    setAsked({ kind, action });
    return undefined;
  };
  return { asked, run, close: () => setAsked(undefined) };
}

export function FreshProofForm({ kind, action, onDone, onCancel }: {
  kind: ProofKind; action: ProofAction; onDone: () => void; onCancel: () => void;
}) {
  const { t } = useLingui();
  const [value, setValue] = useState('');
  const [recovery, setRecovery] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string>();

  const proof = (): FreshProof => (kind === 'password' ? { password: value }
    : recovery ? { recoveryCode: value.trim() } : { googleCode: value.trim() });

  const submit = async () => {
    setFailure(undefined);
    setBusy(true);
    try {
      const error = await action(proof());
      if (error) setFailure(failureText(error));
      else onDone();
    } finally {
      setBusy(false);
    }
  };

  const label = kind === 'password' ? t`Your password`
    : recovery ? t`Recovery code` : t`Google Authenticator code`;
  return (
    <form className="fresh-proof" aria-label={t`Confirm it is you`} onSubmit={(event) => { event.preventDefault(); void submit(); }}>
      <p className="fresh-proof-hint">
        {kind === 'password'
          ? t`To add a way to log in, confirm it is you with your password.`
          : t`To add a way to log in, enter the code from Google Authenticator.`}
      </p>
      {kind === 'password'
        ? <PasswordInput value={value} onChange={setValue} maxLength={64} placeholder={label} aria-label={label} autoComplete="current-password" />
        : <Input value={value} onChange={setValue} maxLength={recovery ? 32 : 6} inputMode={recovery ? 'text' : 'numeric'}
          autoComplete="one-time-code" placeholder={label} aria-label={label} />}
      {kind === 'google' ? (
        <Button size="mini" fill="none" onClick={() => { setRecovery((shown) => !shown); setValue(''); }}>
          {recovery ? t`Use the Google Authenticator code` : t`Use a recovery code`}
        </Button>
      ) : null}
      <div className="fresh-proof-actions">
        <Button size="small" onClick={onCancel} disabled={busy}>{t`Cancel`}</Button>
        <Button size="small" color="primary" type="submit" loading={busy} disabled={!value.trim()}>{t`Confirm`}</Button>
      </div>
      <FormError message={failure} />
    </form>
  );
}

// Passkeys in the security centre (issue 11): the account's passkeys (name, when added, when last
// used, whether synced), adding one (an optional name, then the browser's passkey sheet) and
// removing one after a confirmation. A passkey logs in alone (the device checks the fingerprint,
// face or screen lock), so removing one is confirmed first; the account is told by a notice.
// Adding one needs a fresh proof when the server asks (FreshProof.tsx); a passkey the server flagged
// (its signature counter went backwards: it may have been copied) is marked and should be removed.
import { useState } from 'react';
import { Button, Input } from 'antd-mobile';
import { useLingui } from '@lingui/react/macro';
import type { FreshProof, PasskeyInfo, PasskeyRegisterBody } from '../../api/contract/security.ts';
import { failureText } from '../../api/errorMessages.ts';
import { FormError } from '../../components/form/FormError.tsx';
import { confirmDialog, showToast } from '../../components/feedback.tsx';
import { formatEpochMs } from '../../lib/time.ts';
import {
  browserSupportsPasskeys, isPasskeyCancelled, loadWebAuthn, useMyPasskeysQuery, usePasskeyRegisterOptionsMutation,
  useRegisterPasskeyMutation, useRemovePasskeyMutation,
} from '../../entities/session/passkeyApi.ts';
import { FreshProofForm, useFreshProof } from './FreshProof.tsx';
import '../../entities/session/passkeyTexts.ts';
import './passkeys.css';

export function PasskeysSection() {
  const { t } = useLingui();
  const list = useMyPasskeysQuery();
  const [supported] = useState(browserSupportsPasskeys);
  const [getOptions] = usePasskeyRegisterOptionsMutation();
  const [register] = useRegisterPasskeyMutation();
  const [name, setName] = useState('');
  const [adding, setAdding] = useState(false);
  const [failure, setFailure] = useState<string>();
  const freshProof = useFreshProof();

  /** Options (with the proof), the browser's sheet, the registration: a refusal of a call is answered, a browser failure shown. */
  const addWith = async (proof: FreshProof): Promise<unknown> => {
    const options = await getOptions(proof);
    if (options.error) return options.error;
    const { startRegistration } = await loadWebAuthn();
    let response;
    try {
      response = await startRegistration({ optionsJSON: options.data.options as never });
    } catch (error) {
      const code = (error as { code?: string }).code;
      setFailure(code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED'
        ? t`This device already holds a passkey for your account.`
        : isPasskeyCancelled(error) ? t`No passkey was created.` : t`This browser could not create a passkey here.`);
      return undefined;
    }
    const answer = await register({
      challengeId: options.data.challengeId, response: response as unknown as PasskeyRegisterBody['response'],
      ...(name.trim() ? { name: name.trim() } : {}),
    });
    if (answer.error) return answer.error;
    setName('');
    void showToast(t`Passkey added`);
    return undefined;
  };

  const add = async () => {
    setFailure(undefined);
    setAdding(true);
    try {
      const error = await freshProof.run(addWith);
      if (error) setFailure(failureText(error));
    } finally {
      setAdding(false);
    }
  };

  const passkeys = list.data;
  return (
    <section className="passkeys" aria-busy={list.isLoading} aria-labelledby="passkeys-title">
      <h2 id="passkeys-title" className="passkeys-title">{t`Passkeys`}</h2>
      <p className="passkeys-hint">
        {t`Log in with your fingerprint, face or screen lock instead of a password. The passkey stays on your device or in its password manager.`}
      </p>
      {list.isLoading ? <p className="passkeys-empty">{t`Loading…`}</p>
        : list.error ? <FormError message={failureText(list.error)} />
          : passkeys && passkeys.length === 0 ? <p className="passkeys-empty">{t`No passkeys yet.`}</p>
            : <ul className="passkeys-list">{passkeys?.map((passkey) => <PasskeyRow key={passkey.id} passkey={passkey} />)}</ul>}
      {supported ? (
        <div className="passkeys-add">
          <Input className="passkeys-name" value={name} onChange={setName} maxLength={64} clearable
            placeholder={t`Name (optional), e.g. My phone`} aria-label={t`Passkey name`} />
          <Button block color="primary" loading={adding} disabled={freshProof.asked !== undefined} onClick={() => void add()}>
            {t`Add a passkey`}
          </Button>
          {freshProof.asked ? (
            <FreshProofForm kind={freshProof.asked.kind} action={freshProof.asked.action} onDone={freshProof.close} onCancel={freshProof.close} />
          ) : null}
        </div>
      ) : <p className="passkeys-hint">{t`This browser does not support passkeys.`}</p>}
      <FormError message={failure} />
    </section>
  );
}

function PasskeyRow({ passkey }: { passkey: PasskeyInfo }) {
  const { t } = useLingui();
  const [remove, removing] = useRemovePasskeyMutation();
  const [failure, setFailure] = useState<string>();
  const added = formatEpochMs(passkey.createdAt, 'date');
  const used = passkey.lastUsedAt === null ? undefined : formatEpochMs(passkey.lastUsedAt);
  const name = passkey.name;

  const confirmRemoval = async () => {
    setFailure(undefined);
    const confirmed = await confirmDialog({
      title: t`Remove passkey ${name}?`,
      content: t`You will no longer be able to log in with it. The copy on your device is not deleted; you can remove it there.`,
      confirmText: t`Remove`, cancelText: t`Cancel`,
    });
    if (!confirmed) return;
    const answer = await remove({ id: passkey.id });
    if (answer.error) setFailure(failureText(answer.error));
    else void showToast(t`Passkey removed`);
  };

  return (
    <li className="passkeys-item">
      <div className="passkeys-item-text">
        <span className="passkeys-item-name">{name}</span>
        {passkey.flaggedAt ? (
          <strong className="passkeys-item-flagged" role="alert">{t`This passkey may have been copied: remove it.`}</strong>
        ) : null}
        <span className="passkeys-item-meta">
          {t`Added ${added}`}{' · '}{used ? t`Last used ${used}` : t`Never used`}
          {passkey.backedUp ? <>{' · '}{t`Synced`}</> : null}
        </span>
        <FormError message={failure} />
      </div>
      <Button size="small" fill="outline" color="danger" loading={removing.isLoading} onClick={() => void confirmRemoval()}
        aria-label={t`Remove passkey ${name}`}>
        {t`Remove`}
      </Button>
    </li>
  );
}

// Sessions and devices in the security centre (issue 11): the account's live sessions (the device
// as the server reads it from the user agent, how and when each began, when and from which IP
// address it was last used), ending another one or all the others after a confirmation, and the
// login history below (LoginHistoryList.tsx). The current session is marked and never offered
// for ending here: logging out does that.
import { useState } from 'react';
import { Button } from 'antd-mobile';
import { useLingui } from '@lingui/react/macro';
import type { SessionInfo } from '../../api/contract/security.ts';
import { failureText } from '../../api/errorMessages.ts';
import { FormError } from '../../components/form/FormError.tsx';
import { confirmDialog, showToast } from '../../components/feedback.tsx';
import { formatEpochMs } from '../../lib/time.ts';
import { LoginHistoryList, useSessionWords } from './LoginHistoryList.tsx';
import { useEndOtherSessionsMutation, useEndSessionMutation, useMySessionsQuery } from './sessionApi.ts';
import './sessions.css';

export function SessionsSection() {
  const { t } = useLingui();
  const list = useMySessionsQuery();
  const [endOthers, endingOthers] = useEndOtherSessionsMutation();
  const [failure, setFailure] = useState<string>();
  const [notice, setNotice] = useState<string>();
  const sessions = list.data;
  const others = sessions?.filter((item) => !item.current).length ?? 0;

  const confirmEndOthers = async () => {
    setFailure(undefined);
    setNotice(undefined);
    const confirmed = await confirmDialog({
      title: t`End all other sessions?`,
      content: t`Every device but this one will be logged out and must log in again.`,
      confirmText: t`End all`, cancelText: t`Cancel`,
    });
    if (!confirmed) return;
    const answer = await endOthers();
    if (answer.error) return setFailure(failureText(answer.error));
    const ended = answer.data.ended;
    const text = t`Sessions ended: ${ended}`;
    setNotice(text);
    void showToast(text);
  };

  let content;
  if (list.isLoading) {
    content = <p className="sessions-empty" role="status">{t`Loading…`}</p>;
  } else if (list.isError && !sessions) {
    content = (
      <div className="sessions-failed" role="alert">
        <p>{t`The sessions could not be loaded.`} {failureText(list.error)}</p>
        <Button size="small" color="primary" fill="outline" onClick={() => void list.refetch()}>{t`Retry`}</Button>
      </div>
    );
  } else if (!sessions || sessions.length === 0) {
    content = <p className="sessions-empty">{t`No active sessions.`}</p>;
  } else {
    content = (
      <ul className="sessions-list" aria-label={t`Active sessions`}>
        {sessions.map((session) => <SessionRow key={session.id} session={session} onEnded={setNotice} />)}
      </ul>
    );
  }

  return (
    <>
      <section className="sessions" aria-busy={list.isLoading} aria-labelledby="sessions-title">
        <h2 id="sessions-title" className="sessions-title">{t`Sessions and devices`}</h2>
        <p className="sessions-hint">
          {t`Where your account is logged in now. End any session you do not recognise, then change your password.`}
        </p>
        {content}
        {others > 0 && (
          <Button block color="danger" fill="outline" loading={endingOthers.isLoading}
            aria-label={t`End all other sessions`} onClick={() => void confirmEndOthers()}>
            {t`End all other sessions`}
          </Button>
        )}
        {notice && <p className="sessions-notice" role="status">{notice}</p>}
        <FormError message={failure} />
      </section>
      <LoginHistoryList />
    </>
  );
}

function SessionRow({ session, onEnded }: { session: SessionInfo; onEnded: (text: string) => void }) {
  const { t } = useLingui();
  const words = useSessionWords();
  const [end, ending] = useEndSessionMutation();
  const [failure, setFailure] = useState<string>();
  const device = words.device(session);
  const method = words.method(session.method);
  const began = formatEpochMs(session.createdAt);
  const used = formatEpochMs(session.lastUsedAt);
  const ip = session.ip || t`not recorded`;

  const confirmEnd = async () => {
    setFailure(undefined);
    const confirmed = await confirmDialog({
      title: t`End the session on ${device}?`,
      content: t`That device will be logged out and must log in again.`,
      confirmText: t`End`, cancelText: t`Cancel`,
    });
    if (!confirmed) return;
    const answer = await end({ id: session.id });
    if (answer.error) return setFailure(failureText(answer.error));
    const text = t`Session ended`;
    onEnded(text);
    void showToast(text);
  };

  return (
    <li className="sessions-item" data-testid={`session-${session.id}`}>
      <div className="sessions-item-text">
        <span className="sessions-item-name">
          {device}
          {session.current && <span className="sessions-badge">{t`This device`}</span>}
        </span>
        <span className="sessions-item-meta">{t`Logged in with ${method} on ${began}`}</span>
        <span className="sessions-item-meta">{t`Last used ${used}`}</span>
        <span className="sessions-item-meta">{t`IP address: ${ip}`}</span>
        <FormError message={failure} />
      </div>
      {!session.current && (
        <Button size="small" fill="outline" color="danger" loading={ending.isLoading}
          aria-label={t`End the session on ${device}`} onClick={() => void confirmEnd()}>
          {t`End`}
        </Button>
      )}
    </li>
  );
}

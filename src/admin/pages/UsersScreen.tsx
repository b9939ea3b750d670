// User search: an e-mail, phone number or user name (its start, any case), a user id or a wallet
// address finds users with their security state — verification level, authenticator and recovery
// codes left, passkeys, wallets and other logins, live sessions, the last login and the failed
// ones of the last 24 hours. Counts and names only, never a secret. A search runs when the operator
// submits it (each one is recorded in the audit trail), not on every key. An admin can remove the
// authenticator of a user who lost it (with a reason and their own code; audited, the user told).
import { useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import { Alert, App, Button, Card, Input, Space, Table, Tag, Typography } from 'antd';
import type { AdminUserSecurity } from '../../api/contract/identity.ts';
import { failureMessage } from '../errors.ts';
import { formatCount, formatTime } from '../format.ts';
import { useMeQuery } from '../api.ts';
import { useResetGoogleAuthMutation, useSearchUsersQuery } from '../identityApi.ts';
import { ReasonModal } from './ReasonModal.tsx';

function KycLevelTag({ user }: { user: AdminUserSecurity }) {
  const { t } = useLingui();
  const level = user.kycLevel === 0 ? <Tag>{t`Unverified`}</Tag>
    : user.kycLevel === 1 ? <Tag color="success">{t`Basic`}</Tag> : <Tag color="success">{t`Advanced`}</Tag>;
  return (
    <Space size={4} wrap data-testid="user-kyc" data-level={user.kycLevel}>
      {level}
      {user.kycPending && <Tag color="processing">{t`Under review`}</Tag>}
    </Space>
  );
}

function SecondFactor({ user, onReset }: { user: AdminUserSecurity; onReset?: () => void }) {
  const { t } = useLingui();
  const left = user.recoveryCodesLeft;
  if (!user.googleBound) return <Tag>{t`Not bound`}</Tag>;
  return (
    <Space size={4} wrap>
      <Tag color="success">{t`Bound`}</Tag>
      <Typography.Text type={left === 0 ? 'warning' : 'secondary'}>{t`Recovery codes left: ${left}`}</Typography.Text>
      {onReset && <Button size="small" danger onClick={onReset} data-testid="reset-google">{t`Remove…`}</Button>}
    </Space>
  );
}

/**
 * An admin removes the authenticator of a user who lost it and the recovery codes, once the user's
 * identity was checked outside the app: a reason (the user receives it) and a fresh code of the
 * admin's own authenticator. All the user's sessions end.
 */
function ResetGoogleAuthModal({ user, onClose }: { user?: AdminUserSecurity; onClose(): void }) {
  const { t } = useLingui();
  const { message } = App.useApp();
  const [resetGoogleAuth] = useResetGoogleAuthMutation();
  const account = user?.account || `#${user?.userId ?? ''}`;
  return (
    <ReasonModal open={user !== undefined} title={t`Remove Google Authenticator of ${account}`} okText={t`Remove`}
      label={t`Reason (recorded and sent to the user)`} minLength={10} maxLength={500}
      codeLabel={t`Code from your own authenticator`} onCancel={onClose}
      onSubmit={async (reason, operatorCode) => {
        const answer = await resetGoogleAuth({ userId: user!.userId, reason, operatorCode });
        if ('error' in answer) return failureMessage(answer.error);
        const ended = answer.data.sessionsEnded;
        void message.success(t`Google Authenticator removed. Sessions ended: ${ended}. The user was told.`);
        onClose();
        return undefined;
      }}>
      <Alert type="warning" showIcon style={{ marginBottom: 16 }}
        title={t`Only when the user lost both the authenticator and the recovery codes, and you have checked who is asking. The user's recovery codes go too, every session of the user ends, and the user can then log in with the password alone.`} />
    </ReasonModal>
  );
}

function OtherLogins({ user }: { user: AdminUserSecurity }) {
  const { t } = useLingui();
  const passkeys = user.passkeys;
  if (!passkeys && !user.wallets.length && !user.oidcProviders.length) return <>—</>;
  return (
    <Space orientation="vertical" size={0}>
      {passkeys > 0 && <span>{t`Passkeys: ${passkeys}`}</span>}
      {user.wallets.map((address) => <Typography.Text key={address} className="admin-mono" copyable>{address}</Typography.Text>)}
      {user.oidcProviders.length > 0 && <Space size={4} wrap>{user.oidcProviders.map((provider) => <Tag key={provider}>{provider}</Tag>)}</Space>}
    </Space>
  );
}

export function UsersScreen() {
  const { t } = useLingui();
  const [input, setInput] = useState('');
  const [q, setQ] = useState('');
  const [pageNo, setPageNo] = useState(1);
  const { data, isFetching, error } = useSearchUsersQuery({ q, pageNo }, { skip: q === '' });
  const admin = useMeQuery().data?.role === 'admin';
  const [resetting, setResetting] = useState<AdminUserSecurity>();
  return (
    <Card>
      <Space orientation="vertical" style={{ width: '100%' }} size="middle">
        <Input.Search enterButton={t`Search`} allowClear maxLength={254} value={input} style={{ maxWidth: 560 }} data-testid="user-search"
          placeholder={t`E-mail, phone, user name, user id or wallet address`} aria-label={t`Find a user`}
          onChange={(event) => setInput(event.target.value)}
          onSearch={(value) => {
            setQ(value.trim());
            setPageNo(1);
          }} />
        <Typography.Text type="secondary">
          {t`Text matches the start of an e-mail, phone number or user name; a user id or a wallet address must be whole. Each search is recorded in the audit trail.`}
        </Typography.Text>
        {error && <Alert type="error" showIcon role="alert" title={failureMessage(error)} />}
        {q !== '' && (
          <Table<AdminUserSecurity> rowKey="userId" loading={isFetching} dataSource={data?.records ?? []} data-testid="users-table"
            scroll={{ x: 'max-content' }} locale={{ emptyText: t`No user matches.` }}
            pagination={{ current: data?.current ?? pageNo, pageSize: data?.size ?? 20, total: data?.total ?? 0, showSizeChanger: false, onChange: setPageNo }}
            columns={[
              { key: 'user', title: t`User`, fixed: 'left', render: (_, user) => (
                <Space orientation="vertical" size={0}>
                  <strong>{user.account || '—'}</strong>
                  <Typography.Text type="secondary">#{user.userId} · {formatTime(user.createdAt)}</Typography.Text>
                </Space>
              ) },
              { key: 'kyc', title: t`Verification`, render: (_, user) => <KycLevelTag user={user} /> },
              { key: 'google', title: t`Google Authenticator`, render: (_, user) => <SecondFactor user={user} onReset={admin ? () => setResetting(user) : undefined} /> },
              { key: 'logins', title: t`Other logins`, render: (_, user) => <OtherLogins user={user} /> },
              { key: 'sessions', title: t`Active sessions`, align: 'right', render: (_, user) => formatCount(user.activeSessions) },
              { key: 'last', title: t`Last login`, render: (_, user) => (user.lastLoginAt ? (
                <Space orientation="vertical" size={0}>
                  <span className="admin-time">{formatTime(user.lastLoginAt)}</span>
                  {user.lastLoginIp && <Typography.Text type="secondary" className="admin-mono">{user.lastLoginIp}</Typography.Text>}
                </Space>
              ) : '—') },
              { key: 'failed', title: t`Failed logins (24 h)`, align: 'right', render: (_, user) => (user.failedLogins24h > 0
                ? <Typography.Text type="danger" strong>{formatCount(user.failedLogins24h)}</Typography.Text> : '0') },
            ]} />
        )}
      </Space>
      <ResetGoogleAuthModal user={resetting} onClose={() => setResetting(undefined)} />
    </Card>
  );
}

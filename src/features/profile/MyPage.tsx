// /my: who is logged in, their invite code, the wallet's pages, and the personal centre: personal
// data, password, language, installation, appearance (theme and price colours), log out.
import { useEffect, useState } from 'react';
import { useDispatch, useSelector } from 'react-redux';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { Badge, List, NoticeBar, PullToRefresh } from 'antd-mobile';
import {
  BankcardOutline, BellOutline, BillOutline, StarOutline, ReceiptOutline, CollectMoneyOutline, FileOutline, HistogramOutline, DownlandOutline, QuestionCircleOutline, SoundOutline, GlobalOutline, LockOutline, PayCircleOutline, UnorderedListOutline, UploadOutline,
  TeamOutline, UserContactOutline, UserOutline, GiftOutline,
} from 'antd-mobile-icons';
import { useLingui } from '@lingui/react/macro';
import { CopyButton } from '../../components/CopyButton.tsx';
import { InstallListItem } from '../../components/InstallButton.tsx';
import { LanguagePicker } from '../../components/LanguagePicker.tsx';
import { locales } from '../../lib/locales.ts';
import { formatServerTime } from '../../lib/time.ts';
import { useGetMyUserInfoQuery, useLogoutMutation } from '../../entities/session/authApi.ts';
import { useKycStateQuery } from '../../entities/session/kycApi.ts';
import { forgetThisBrowsersPush, usePushUnsubscribeMutation } from '../../entities/push/pushApi.ts';
import { loggedOut, userInfoReceived, type UserState } from '../../entities/session/userSlice.ts';
import { ChangePasswordPopup } from './ChangePasswordPopup.tsx';
import { AppearanceSettings } from './AppearanceSettings.tsx';
import { avatarLetter } from './avatar.ts';
import { confirmDialog } from '../../components/feedback.tsx';
import { prepareAccountTexts } from '../../lib/catalogs.ts';
import { unreadPollMs, useUnreadQuery } from '../../entities/content/contentApi.ts';

declare const __APP_VERSION__: string;

/** The router awaits this before the page shows: its texts. */
export const prepare = prepareAccountTexts;

export default function MyPage() {
  const { t, i18n } = useLingui();
  const navigate = useNavigate();
  const dispatch = useDispatch();
  const [params, setParams] = useSearchParams();
  const stored = useSelector((state: { user: UserState }) => state.user.userInfo);
  const query = useGetMyUserInfoQuery();
  const [logout] = useLogoutMutation();
  const [pushUnsubscribe] = usePushUnsubscribeMutation();
  const [languageOpen, setLanguageOpen] = useState(false);
  const passwordOpen = params.get('panel') === 'password';
  const user = query.data ?? stored;
  // Identity verification: a prompt while below the top level, and where to go next.
  const kyc = useKycStateQuery().data;
  const kycNext = !kyc || kyc.basic === 'pending' || kyc.advanced === 'pending' ? '/renzhengResult'
    : kyc.basic === 'approved' ? '/shenfenRenzhengAd' : '/shenfenRenzheng';

  useEffect(() => {
    if (query.data) dispatch(userInfoReceived(query.data));
  }, [query.data, dispatch]);

  const confirmLogout = async () => {
    const confirmed = await confirmDialog({
      content: t`Log out of Bourse on this device?`, confirmText: t`Log out`, cancelText: t`Cancel`,
    });
    if (!confirmed) return;
    await forgetThisBrowsersPush((body) => pushUnsubscribe(body).unwrap());
    await logout();
    dispatch(loggedOut());
    navigate('/home', { replace: true });
  };
  const languageName = locales.find((locale) => locale.value === i18n.locale)?.text;
  const letter = avatarLetter(user);

  return (
    <PullToRefresh onRefresh={async () => void (await query.refetch())}
      pullingText={t`Pull to refresh`} canReleaseText={t`Release to refresh`} refreshingText={t`Loading...`}
      completeText={t`Updated`}>
      <div className="my">
        <section className="my-card" aria-label={t`Account`}>
          <div className="my-avatar" aria-hidden="true">{letter ?? <UserOutline />}</div>
          <div className="my-identity">
            {/* One line, cut with an ellipsis; the title keeps the whole address. */}
            <p className="my-account" data-testid="my-account" title={user.account}>{user.account || `#${user.id}`}</p>
            <p className="my-meta">{t`ID`}: {user.id}</p>
            {user.createTime && <p className="my-meta">{t`Joined`}: {formatServerTime(user.createTime, 'date')}</p>}
          </div>
        </section>
        {user.hasInitialPassword && (
          <NoticeBar color="alert" wrap content={t`You are still using the initial password. Please change it.`} />
        )}
        {kyc && kyc.level < 2 && (
          <List className="my-verify" data-testid="my-kyc">
            <List.Item prefix={<UserContactOutline />} onClick={() => navigate(kycNext)}
              description={t`Verification level ${kyc.level} of 2. Verify to raise your withdrawal and loan limits.`}>
              {t`Verify your identity`}
            </List.Item>
          </List>
        )}
        <List header={t`Invitation`}>
          <List.Item extra={user.inviteCode && <CopyButton text={user.inviteCode} label={t`Copy invitation code`} />}
            description={t`Friends who register with your code join your team.`}>
            {t`Invitation code`}: <strong>{user.inviteCode}</strong>
          </List.Item>
          <List.Item prefix={<TeamOutline />} onClick={() => navigate('/tuanduiYaoqing')}>{t`Team invitation`}</List.Item>
        </List>
        <List header={t`Wallet`}>
          <List.Item prefix={<PayCircleOutline />} onClick={() => navigate('/zichanCenter')}>{t`Asset centre`}</List.Item>
          <List.Item prefix={<DownlandOutline />} onClick={() => navigate('/chongzhi')}>{t`Deposit`}</List.Item>
          <List.Item prefix={<UploadOutline />} onClick={() => navigate('/tixian')}>{t`Withdrawal`}</List.Item>
          <List.Item prefix={<UnorderedListOutline />} onClick={() => navigate('/chongzhitixianRecord')}>
            {t`Deposit and withdrawal records`}
          </List.Item>
          <List.Item prefix={<BillOutline />} onClick={() => navigate('/zhangbianRecord')}>{t`Account ledger`}</List.Item>
          <List.Item prefix={<BankcardOutline />} onClick={() => navigate('/jiesuanInfo')}>{t`Settlement info`}</List.Item>
        </List>
        {/* Investment products and loans (issue 22). */}
        <List header={t`Investments and loans`}>
          <List.Item prefix={<StarOutline />} onClick={() => navigate('/vipLevel')}>{t`VIP level`}</List.Item>
          <List.Item prefix={<GiftOutline />} onClick={() => navigate('/fuliCenter')}>{t`Welfare centre`}</List.Item>
          <List.Item prefix={<UnorderedListOutline />} onClick={() => navigate('/ieo')}>{t`Token offering`}</List.Item>
          <List.Item prefix={<StarOutline />} onClick={() => navigate('/bisai')}>{t`Competitions`}</List.Item>
          <List.Item prefix={<ReceiptOutline />} onClick={() => navigate('/taoliOrder')}>{t`Investment orders`}</List.Item>
          <List.Item prefix={<CollectMoneyOutline />} onClick={() => navigate('/jiedaiOrder')}>{t`Loan orders`}</List.Item>
        </List>
        <ContentEntries />
        <List header={t`Personal centre`}>
          <List.Item prefix={<UserContactOutline />} onClick={() => navigate('/gerenziliao')}>{t`Personal data`}</List.Item>
          <List.Item prefix={<UserContactOutline />} extra={kyc && t`Level ${kyc.level}`} onClick={() => navigate('/renzhengResult')}>
            {t`Identity verification`}
          </List.Item>
          <List.Item prefix={<LockOutline />} onClick={() => navigate('/anquanZhongxin')}>{t`Account security`}</List.Item>
          <List.Item prefix={<BellOutline />} onClick={() => navigate('/notificationSettings')}>{t`Notifications`}</List.Item>
          <List.Item prefix={<HistogramOutline />} onClick={() => navigate('/priceAlerts')}>{t`Price alerts`}</List.Item>
          <List.Item prefix={<LockOutline />} onClick={() => setParams({ panel: 'password' }, { replace: true })}>
            {t`Change login password`}
          </List.Item>
          <List.Item prefix={<GlobalOutline />} extra={languageName} onClick={() => setLanguageOpen(true)}>
            {t`Language`}
          </List.Item>
          <InstallListItem />
        </List>
        <AppearanceSettings />
        <List>
          <List.Item onClick={confirmLogout} arrowIcon={false} className="logout-item">{t`Log out`}</List.Item>
        </List>
        <p className="app-version">{t`Version`} {typeof __APP_VERSION__ === 'string' ? __APP_VERSION__ : ''}</p>
      </div>
      <LanguagePicker visible={languageOpen} onClose={() => setLanguageOpen(false)} />
      <ChangePasswordPopup visible={passwordOpen} onClose={() => setParams({}, { replace: true })}
        onChanged={() => void query.refetch()} />
    </PullToRefresh>
  );
}

const badgeText = (count: number) => (count > 99 ? '99+' : String(count));

/**
 * The user's messages (with the unread count), announcements, the help centre and news (issue
 * 21); the counts are asked again every minute and on focus, and feed the My tab's badge too.
 */
function ContentEntries() {
  const { t } = useLingui();
  const navigate = useNavigate();
  const { data } = useUnreadQuery(undefined, { pollingInterval: unreadPollMs, refetchOnFocus: true });
  const messages = data?.messages ?? 0;
  const announcements = data?.announcements ?? 0;
  return (
    <List header={t`Messages and help`}>
      <List.Item prefix={<BellOutline />} onClick={() => navigate('/messages')}
        extra={messages > 0 && <Badge content={badgeText(messages)} aria-label={t`${messages} unread`} />}>
        {t`Messages`}
      </List.Item>
      <List.Item prefix={<SoundOutline />} onClick={() => navigate('/announcements')}
        extra={announcements > 0 && <Badge content={badgeText(announcements)} aria-label={t`${announcements} unread`} />}>
        {t`Announcements`}
      </List.Item>
      <List.Item prefix={<QuestionCircleOutline />} onClick={() => navigate('/helpCentre')}>{t`Help centre`}</List.Item>
      <List.Item prefix={<FileOutline />} onClick={() => navigate('/xinwen')}>{t`News`}</List.Item>
    </List>
  );
}

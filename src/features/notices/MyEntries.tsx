// The My page's entries to the user's messages (with the unread count), announcements, the help
// centre and news (issue 21). The unread counts are asked again every minute and on focus.
import { useNavigate } from 'react-router-dom';
import { Badge, List } from 'antd-mobile';
import { BellOutline, FileOutline, QuestionCircleOutline, SoundOutline } from 'antd-mobile-icons';
import { useLingui } from '@lingui/react/macro';
import { unreadPollMs, useUnreadQuery } from './contentApi.ts';
import { badgeText } from './unreadBadge.ts';

export function MyContentEntries() {
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

export { prepareContentTexts } from './contentTexts.ts';

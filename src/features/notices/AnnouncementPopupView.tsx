// The announcement pop-up's view: antd-mobile's centre popup (with its animation library) and the
// rich-text body. It loads only when an announcement is to pop up, so the home notice strip, which
// every visitor gets once the first screen is idle, does not bring that code with it.
import { Button, CenterPopup } from 'antd-mobile';
import { useLingui } from '@lingui/react/macro';
import type { ContentItem } from '../../api/contract/content.ts';
import { RichText } from './RichText.tsx';

export default function AnnouncementPopupView({ announcement, body, onClose }: {
  announcement: ContentItem; body: string | undefined; onClose(): void;
}) {
  const { t } = useLingui();
  return (
    <CenterPopup visible role="dialog" aria-label={announcement.title} onClose={onClose} showCloseButton>
      <div className="announcement-popup" data-announcement-id={announcement.id}>
        <h2 className="announcement-popup-title">{announcement.title}</h2>
        <div className="announcement-popup-body">{body ? <RichText html={body} /> : <p>{announcement.summary}</p>}</div>
        <Button block color="primary" onClick={onClose}>{t`Got it`}</Button>
      </div>
    </CenterPopup>
  );
}

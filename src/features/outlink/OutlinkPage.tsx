// /outlink?url=…: the outside-link page (link mode 4). It names the site the user is about to
// open and lets them continue or go back; only http(s) targets are offered. A refused target is
// never shown: anyone can craft the link, and its text in our own page would read as our message
// ("Your account is frozen, call …"), so the page says only that the link cannot be opened.
import { useSearchParams } from 'react-router-dom';
import { Button, ErrorBlock } from 'antd-mobile';
import { useLingui } from '@lingui/react/macro';
import { PageHeader } from '../../components/PageHeader.tsx';
import { useBack } from '../../components/useBack.ts';
import { isSafeExternalUrl } from '../../lib/links.ts';

export default function OutlinkPage() {
  const { t } = useLingui();
  const back = useBack();
  const [params] = useSearchParams();
  const url = params.get('url') ?? '';
  const safe = isSafeExternalUrl(url);
  return (
    <div className="outlink">
      <PageHeader title={t`External link`} />
      {safe ? (
        <section className="outlink-body">
          <p>{t`You are leaving Bourse for another website. We are not responsible for its content.`}</p>
          <p className="outlink-host">{new URL(url).host}</p>
          <p className="outlink-url">{url}</p>
          <Button block color="primary" size="large" onClick={() => window.location.assign(url)}>{t`Continue`}</Button>
          <Button block fill="none" onClick={back}>{t`Back`}</Button>
        </section>
      ) : (
        <ErrorBlock status="default" title={t`This link cannot be opened.`}
          description={t`Only links to websites (http or https addresses) can be opened from the app.`} />
      )}
    </div>
  );
}

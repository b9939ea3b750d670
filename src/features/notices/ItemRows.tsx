// The rows of a list of notices, announcements, help articles or news: a title, a summary and a
// date, a cover for news, and an unread dot for a signed-in reader's unread announcement. Each
// row is a link to the item's page.
import { Link } from 'react-router-dom';
import { useLingui } from '@lingui/react/macro';
import type { ContentItem } from '../../api/contract/content.ts';
import { formatEpochMs, isoOfEpochMs } from '../../lib/time.ts';

export function ItemRows({ items, label, detailPath, showRead = false, covers = false }: {
  items: readonly ContentItem[]; label: string; detailPath: string; showRead?: boolean; covers?: boolean;
}) {
  const { t } = useLingui();
  return (
    <ul className={`content-rows${covers ? ' with-covers' : ''}`} aria-label={label}>
      {items.map((item) => {
        const unread = showRead && item.readAt === undefined;
        return (
          <li key={item.id} className={`content-row${unread ? ' unread' : ''}`} data-item-id={item.id}>
            <Link to={`${detailPath}?id=${item.id}`} className="content-row-link">
              {covers && (item.coverUrl
                ? <img className="content-row-cover" src={item.coverUrl} alt="" loading="lazy" decoding="async" />
                : <span className="content-row-cover empty" aria-hidden="true" />)}
              <span className="content-row-text">
                <span className="content-row-title">
                  {unread && <span className="unread-dot" role="img" aria-label={t`Unread`} />}
                  {item.title}
                </span>
                {item.summary && <span className="content-row-summary">{item.summary}</span>}
                <time className="content-row-date" dateTime={isoOfEpochMs(item.publishAt)}>{formatEpochMs(item.publishAt, 'date')}</time>
              </span>
            </Link>
          </li>
        );
      })}
    </ul>
  );
}

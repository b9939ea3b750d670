// helpCentre: the help articles, searched as the user types (after a pause, so each key is not a
// request) and filtered by category; each opens its page. Seen before, they open offline.
import { useEffect, useState } from 'react';
import { Input } from 'antd-mobile';
import { useLingui } from '@lingui/react/macro';
import { PageHeader } from '../../components/PageHeader.tsx';
import { useHelpListInfiniteQuery } from '../../entities/content/contentApi.ts';
import { prepareContentTexts } from './contentTexts.ts';
import { ItemRows } from './ItemRows.tsx';
import { cachedAtOf, ContentList, rowsOf } from './parts.tsx';
import './notices.css';

export const prepare = prepareContentTexts;
export const searchDelayMs = 300;
export const searchLengthMax = 100;

/** The value after it has stopped changing for `delayMs`. */
export function useDebounced<T>(value: T, delayMs: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return settled;
}

/** A category key as the server writes it ("getting_started") read as words ("Getting started"). */
export const categoryLabel = (key: string) => {
  const words = key.replace(/[_-]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

export default function HelpCentrePage() {
  const { t } = useLingui();
  const [text, setText] = useState('');
  const [category, setCategory] = useState<string | undefined>(undefined);
  const q = useDebounced(text.trim().slice(0, searchLengthMax), searchDelayMs);
  const query = useHelpListInfiniteQuery({ q: q || undefined, category });
  // The categories are those of the articles of the whole centre (the unfiltered first read).
  const all = useHelpListInfiniteQuery({});
  const categories = [...new Set(rowsOf(all.data?.pages).map((item) => item.category).filter((key): key is string => Boolean(key)))];
  const items = rowsOf(query.data?.pages);
  return (
    <div className="content-page">
      <PageHeader title={t`Help centre`} />
      <div className="content-tools">
        {/* antd-mobile's SearchBar gives its input no name; an Input of type search carries the label. */}
        <Input type="search" className="content-search" placeholder={t`Search the help centre`} value={text} onChange={setText}
          maxLength={searchLengthMax} clearable aria-label={t`Search the help centre`} />
        {categories.length > 0 && (
          <div className="content-filter" role="group" aria-label={t`Categories`}>
            <button type="button" className={`filter-chip${category === undefined ? ' active' : ''}`} aria-pressed={category === undefined}
              onClick={() => setCategory(undefined)}>{t`All`}</button>
            {categories.map((key) => (
              <button key={key} type="button" className={`filter-chip${category === key ? ' active' : ''}`} aria-pressed={category === key}
                onClick={() => setCategory(key)}>{categoryLabel(key)}</button>
            ))}
          </div>
        )}
      </div>
      <ContentList query={query} count={items.length} cachedAtMs={cachedAtOf(query.data?.pages)}
        loadingLabel={t`Loading help articles`} empty={q ? t`Nothing matches your search.` : t`There are no help articles yet.`}>
        <ItemRows items={items} label={t`Help articles`} detailPath="/helpDetail" />
      </ContentList>
    </div>
  );
}

// articleList: the articles as a compact list (see NewsPage).
import { ArticlesPage } from './NewsPage.tsx';
import { prepareContentTexts } from './contentTexts.ts';

export const prepare = prepareContentTexts;

export default function ArticleListPage() {
  return <ArticlesPage covers={false} />;
}

// Paged lists (pageNo from 1, pageSize): the offset of a page and the number of pages.
export function pageParams(query: { pageNo?: number; pageSize?: number }) {
  const pageNo = query.pageNo ?? 1;
  const pageSize = query.pageSize ?? 20;
  return { pageNo, pageSize, offset: (pageNo - 1) * pageSize };
}

export const pageCount = (total: number, size: number) => Math.ceil(total / size);

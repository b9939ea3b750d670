// A shared receipt's link names one record (?order= on the options screen, ?id= on the swap
// records): once the list shows it, it is scrolled to the middle of the screen and outlined. A
// record beyond the pages read so far is not searched for.
import { useEffect } from 'react';

const recordId = /^[1-9]\d{0,18}$/;

/** Outlines the element `[attribute="id"]` when `id` is a record id and `rowsShown` says the list has rendered. */
export function useLinkedRecord(attribute: string, id: string | null, rowsShown: number) {
  useEffect(() => {
    if (!id || !recordId.test(id) || rowsShown === 0) return;
    const element = document.querySelector<HTMLElement>(`[${attribute}="${id}"]`);
    if (!element) return;
    element.classList.add('linked-record');
    element.scrollIntoView?.({ block: 'center' });
  }, [attribute, id, rowsShown]);
}

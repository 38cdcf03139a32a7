import { useCallback, useDeferredValue, useEffect, useState } from 'react';

/**
 * A list's search text (deferred, so typing stays quick over a long list) and how many of its items
 * are shown: `pageSize` at first, a page more per `showMore`, back to one page when the search or
 * `resetKey` (the series, the tab) changes.
 */
export function usePagedSearch(pageSize: number, resetKey: string) {
  const [search, setSearch] = useState('');
  const deferredSearch = useDeferredValue(search);
  const [shown, setShown] = useState(pageSize);
  useEffect(() => setShown(pageSize), [pageSize, deferredSearch, resetKey]);
  const showMore = useCallback(() => setShown((n) => n + pageSize), [pageSize]);
  return { search, setSearch, deferredSearch, shown, showMore };
}

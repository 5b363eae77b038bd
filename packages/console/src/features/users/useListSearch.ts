import { useEffect, useState } from 'react';

/** SEARCH_DEBOUNCE_MS is how long typing pauses before the server is asked. */
export const SEARCH_DEBOUNCE_MS = 300;

/**
 * useListSearch holds a server-side list's search box and page: the text as typed, the search sent (after a pause
 * in typing) and the page, which starts again at 1 whenever the search changes.
 */
export function useListSearch() {
  const [text, setText] = useState('');
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  useEffect(() => {
    const timer = setTimeout(() => {
      const next = text.trim();
      setSearch((current) => {
        if (current !== next) setPage(1);
        return next;
      });
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text]);
  return { text, setText, search, page, setPage };
}

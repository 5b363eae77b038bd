import { useEffect, useState } from 'react';
import { useLocation } from 'react-router';

/** DESKTOP_MEDIA_QUERY is the sidebar breakpoint. */
export const DESKTOP_MEDIA_QUERY = '(min-width: 768px)';

/** useMobileSidebar holds the mobile slide-over's state; it closes on navigation and at desktop width. */
export function useMobileSidebar() {
  const [open, setOpen] = useState(false);
  const { pathname, search } = useLocation();

  // biome-ignore lint/correctness/useExhaustiveDependencies: closing is the reaction to a navigation.
  useEffect(() => setOpen(false), [pathname, search]);

  useEffect(() => {
    if (typeof window.matchMedia !== 'function') return;
    const query = window.matchMedia(DESKTOP_MEDIA_QUERY);
    const onChange = () => {
      if (query.matches) setOpen(false);
    };
    query.addEventListener('change', onChange);
    return () => query.removeEventListener('change', onChange);
  }, []);

  return { open, setOpen };
}

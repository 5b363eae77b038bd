import { ChevronLeft, ChevronRight } from 'lucide-react';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { cn } from '@/lib/cn';

/**
 * ScrollRow is a row wider than the screen (a list of tabs at 375 px) that scrolls sideways and says so: a fade
 * and an arrow on each side that has more, and the item marked active (data-state="active", as Radix marks a tab)
 * scrolled into view whenever `active` changes.
 */
export function ScrollRow({
  active,
  className,
  children,
}: {
  active?: string;
  className?: string;
  children: ReactNode;
}) {
  const row = useRef<HTMLDivElement>(null);
  const [more, setMore] = useState({ before: false, after: false });

  useEffect(() => {
    const element = row.current;
    if (!element) return;
    const update = () => {
      const before = element.scrollLeft > 1;
      const after = element.scrollLeft + element.clientWidth < element.scrollWidth - 1;
      setMore((was) => (was.before === before && was.after === after ? was : { before, after }));
    };
    update();
    element.addEventListener('scroll', update, { passive: true });
    const resized = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(update);
    // The row's own width, and its content's (a tab added later makes it overflow).
    resized?.observe(element);
    for (const child of element.children) resized?.observe(child);
    return () => {
      element.removeEventListener('scroll', update);
      resized?.disconnect();
    };
  }, []);

  useEffect(() => {
    const element = row.current;
    const current = active === undefined ? null : element?.querySelector<HTMLElement>('[data-state="active"]');
    if (!element || !current) return;
    // Within the row only: the page itself does not move.
    const left = current.offsetLeft - element.offsetLeft;
    if (left < element.scrollLeft || left + current.offsetWidth > element.scrollLeft + element.clientWidth) {
      element.scrollLeft = Math.max(0, left + current.offsetWidth - element.clientWidth);
    }
  }, [active]);

  const hint = 'pointer-events-none absolute inset-y-0 flex w-10 items-center text-muted-foreground';
  return (
    <div className={cn('relative', className)}>
      <div ref={row} className="overflow-x-auto [scrollbar-width:none] [&::-webkit-scrollbar]:hidden">
        {children}
      </div>
      {more.before && (
        <div
          aria-hidden
          data-scroll-hint="before"
          className={cn(hint, 'left-0 bg-gradient-to-r from-background to-transparent')}
        >
          <ChevronLeft className="size-4" />
        </div>
      )}
      {more.after && (
        <div
          aria-hidden
          data-scroll-hint="after"
          className={cn(hint, 'right-0 justify-end bg-gradient-to-l from-background to-transparent')}
        >
          <ChevronRight className="size-4" />
        </div>
      )}
    </div>
  );
}

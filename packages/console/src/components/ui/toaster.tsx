import { CircleAlert, CircleCheck, X } from 'lucide-react';
import { Toast } from 'radix-ui';
import { useEffect, useRef, useSyncExternalStore } from 'react';
import { cn } from '@/lib/cn';
import { dismissToast, getToasts, subscribeToasts } from '@/lib/toast';

/** TOAST_DURATION_MS and TOAST_SWIPE_THRESHOLD_PX are the toast constants */
export const TOAST_DURATION_MS = 5000;
export const TOAST_SWIPE_THRESHOLD_PX = 50;

// A toast never covers the page: it takes room. While one shows, --toast-room is its height with a margin above
// and below, and the page makes that room under the top bar (ToastRoom, in the sticky header, so the page moves
// down rather than under it, scrolled or not); open dialogs and the mobile navigation stay below --toast-bottom
// (index.css derives it from --toast-showing, --toast-top and --toast-room).
const TOAST_MARGIN_PX = 8;

function useToastRoom() {
  const viewport = useRef<HTMLOListElement>(null);
  useEffect(() => {
    const list = viewport.current;
    if (!list || typeof ResizeObserver === 'undefined') return;
    const root = document.documentElement.style;
    const measure = () => {
      const height = list.getBoundingClientRect().height;
      root.setProperty('--toast-showing', height > 0 ? '1' : '0');
      root.setProperty('--toast-room', height > 0 ? `${height + 2 * TOAST_MARGIN_PX}px` : '0px');
    };
    const observer = new ResizeObserver(measure);
    observer.observe(list);
    return () => {
      observer.disconnect();
      root.removeProperty('--toast-showing');
      root.removeProperty('--toast-room');
    };
  }, []);
  return viewport;
}

/** ToastRoom is the room a showing toast takes at the top of a page: nothing while none shows. */
export function ToastRoom({ className }: { className?: string }) {
  return <div aria-hidden className={cn('h-[var(--toast-room,0px)] shrink-0', className)} />;
}

/**
 * Toaster is the console's toast area, at most 420 px wide, at the top and centred: in the shell, just below the
 * top bar and over the page's column beside the sidebar. It covers nothing: the page (and any dialog) makes room
 * for what it shows (ToastRoom, --toast-bottom).
 */
export function Toaster() {
  const toasts = useSyncExternalStore(subscribeToasts, getToasts, getToasts);
  const viewport = useToastRoom();
  return (
    <Toast.Provider duration={TOAST_DURATION_MS} swipeDirection="right" swipeThreshold={TOAST_SWIPE_THRESHOLD_PX}>
      {toasts.map((toast) => {
        const destructive = toast.variant === 'destructive';
        return (
          <Toast.Root
            key={toast.id}
            open={toast.open}
            onOpenChange={(open) => {
              if (!open) dismissToast(toast.id);
            }}
            className={cn(
              'group pointer-events-auto relative flex w-full items-start gap-3 rounded-lg border bg-popover p-4 pr-9 text-popover-foreground shadow-lg',
              'data-[state=open]:animate-toast-in data-[state=closed]:animate-fade-out',
              'data-[swipe=move]:translate-x-[var(--radix-toast-swipe-move-x)] data-[swipe=cancel]:translate-x-0 data-[swipe=cancel]:transition-transform data-[swipe=end]:animate-fade-out',
              destructive && 'border-destructive/40 bg-destructive text-destructive-foreground',
            )}
          >
            {toast.variant === 'success' && <CircleCheck aria-hidden className="mt-0.5 size-4 shrink-0 text-primary" />}
            {destructive && <CircleAlert aria-hidden className="mt-0.5 size-4 shrink-0" />}
            <div className="grid min-w-0 gap-0.5">
              <Toast.Title className="text-sm font-semibold">{toast.title}</Toast.Title>
              {toast.description && (
                <Toast.Description className={cn('text-sm', destructive ? 'opacity-90' : 'text-muted-foreground')}>
                  {toast.description}
                </Toast.Description>
              )}
            </div>
            <Toast.Close
              aria-label="Close"
              className="absolute top-2.5 right-2.5 rounded-md p-1 opacity-60 transition hover:opacity-100 focus-visible:opacity-100 focus-visible:ring-2 focus-visible:ring-ring/40 focus-visible:outline-none"
            >
              <X className="size-4" />
            </Toast.Close>
          </Toast.Root>
        );
      })}
      <Toast.Viewport
        ref={viewport}
        className={cn(
          'fixed top-(--toast-top) left-1/2 z-[100] flex max-h-dvh w-[calc(100%-2rem)] max-w-[420px] -translate-x-1/2 flex-col gap-2 outline-none',
          // The viewport lives outside the routes, so it asks the page whether the shell (and its sidebar) is there:
          // then it sits over the page's column (and below the top bar: index.css).
          'md:[:root:has([data-app-shell])_&]:left-[calc(50%+8rem)]',
        )}
      />
    </Toast.Provider>
  );
}

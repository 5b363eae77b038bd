import { CircleAlert, CircleCheck, X } from 'lucide-react';
import { Toast } from 'radix-ui';
import { useSyncExternalStore } from 'react';
import { cn } from '@/lib/cn';
import { dismissToast, getToasts, subscribeToasts } from '@/lib/toast';

/** TOAST_DURATION_MS and TOAST_SWIPE_THRESHOLD_PX are the toast constants */
export const TOAST_DURATION_MS = 5000;
export const TOAST_SWIPE_THRESHOLD_PX = 50;

/**
 * Toaster is the console's toast area, at most 420 px wide, near the top and centred: in the shell, just below
 * the top bar and over the page's column beside the sidebar. Page headers keep their title left and their
 * actions right, so the middle is the one place a toast hides nothing to act on; the bottom corners hold the
 * help widget, the connection banner, dialog buttons and a table's last rows. On the sign-in page's wide
 * layout it sits over the feature panel, away from the form.
 */
export function Toaster() {
  const toasts = useSyncExternalStore(subscribeToasts, getToasts, getToasts);
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
        className={cn(
          'fixed top-16 left-1/2 z-[100] flex max-h-dvh w-[calc(100%-2rem)] max-w-[420px] -translate-x-1/2 flex-col gap-2 outline-none lg:left-3/4',
          // The viewport lives outside the routes, so it asks the page whether the shell (and its sidebar) is there.
          'md:[:root:has([data-app-shell])_&]:left-[calc(50%+8rem)]',
        )}
      />
    </Toast.Provider>
  );
}

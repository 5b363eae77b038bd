// A tiny toast store for the Radix toaster (components/ui/toaster.tsx). The console shows one toast at a
// time: a new toast replaces the visible one.

/** ToastInput is one notification: a title, an optional description and its style. */
export interface ToastInput {
  title: string;
  description?: string;
  variant?: 'default' | 'success' | 'destructive';
}

/** ToastItem is a toast in the store; `open` turns false when it is dismissed. */
export interface ToastItem extends ToastInput {
  id: number;
  open: boolean;
}

/** TOAST_LIMIT is how many toasts are shown at once. */
export const TOAST_LIMIT = 1;
// Closed toasts stay long enough for their exit animation.
const REMOVE_DELAY_MS = 300;

let toasts: readonly ToastItem[] = [];
let nextId = 1;
const listeners = new Set<() => void>();

function update(next: readonly ToastItem[]) {
  toasts = next;
  for (const listener of listeners) listener();
}

/** showToast shows a toast, replacing any visible one. */
export function showToast(input: ToastInput): void {
  update([{ ...input, id: nextId++, open: true }, ...toasts].slice(0, TOAST_LIMIT));
}

/** dismissToast closes a toast and forgets it once its exit animation is over. */
export function dismissToast(id: number): void {
  update(toasts.map((t) => (t.id === id ? { ...t, open: false } : t)));
  setTimeout(() => update(toasts.filter((t) => t.id !== id)), REMOVE_DELAY_MS);
}

/** subscribeToasts and getToasts connect the store to useSyncExternalStore. */
export function subscribeToasts(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

export function getToasts(): readonly ToastItem[] {
  return toasts;
}

/** clearToasts empties the store at once (between tests). */
export function clearToasts(): void {
  update([]);
}

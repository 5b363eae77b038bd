import type { LayoutElement, StoredLayout } from './schema-layout.schemas.js';
import { mergeLayoutElements, sameValue } from './schema-layout-merge.js';

// One editor's side of the Schema Editor room: what it shows, what it has sent, and how it folds in what it
// hears. An editor has at most one update in flight: it sends its layout with the version it is based on, keeps
// editing meanwhile, and sends the edits made in between once the server's answer (the merged layout) is back.
// That way each update's base already holds all of the editor's earlier updates, which is what the server's
// three-way merge needs (schema-layout-merge.ts) to see, say, a table added and deleted again. Layouts heard
// from others while an update is in flight wait for its answer, which includes them. Pure: the console keeps it
// in a ref, and the property tests drive two of them through a model server.

/** LayoutSync is an editor's state. */
export interface LayoutSync {
  /** The latest layout heard from the server. */
  base: StoredLayout;
  /** What the editor shows: `base` plus its own edits. */
  local: LayoutElement[];
  /** The elements of the update in flight, or null. */
  sent: LayoutElement[] | null;
  /** Layouts heard from others while an update was in flight. */
  held: StoredLayout[];
}

/** OutgoingLayout is an update to send: the elements and the version they are based on. */
export interface OutgoingLayout {
  elements: LayoutElement[];
  version: number;
}

/** syncStart begins from the server's layout. */
export function syncStart(layout: StoredLayout): LayoutSync {
  return { base: layout, local: layout.elements, sent: null, held: [] };
}

/** syncEdit replaces what the editor shows with its edited elements. */
export function syncEdit(state: LayoutSync, elements: LayoutElement[]): LayoutSync {
  return { ...state, local: elements };
}

/** syncHasUnsent tells whether the editor shows edits that the server has not been sent. */
export function syncHasUnsent(state: LayoutSync): boolean {
  return !sameValue(state.local, state.sent ?? state.base.elements);
}

/** syncTakeSend returns the update to send now (none while one is in flight or nothing changed). */
export function syncTakeSend(state: LayoutSync): { state: LayoutSync; outgoing: OutgoingLayout | null } {
  if (state.sent !== null || !syncHasUnsent(state)) return { state, outgoing: null };
  return {
    state: { ...state, sent: state.local },
    outgoing: { elements: state.local, version: state.base.version },
  };
}

/** syncRemote folds in a layout another editor's update produced. */
export function syncRemote(state: LayoutSync, layout: StoredLayout): LayoutSync {
  if (layout.version <= state.base.version) return state;
  if (state.sent !== null) return { ...state, held: [...state.held, layout] };
  const local = mergeLayoutElements({ base: state.base.elements, mine: state.local, theirs: layout.elements });
  return { ...state, base: layout, local };
}

/** syncAck folds in the server's answer to the update in flight (the merged layout). */
export function syncAck(state: LayoutSync, layout: StoredLayout): LayoutSync {
  if (state.sent === null) return syncRemote(state, layout);
  const local = mergeLayoutElements({ base: state.sent, mine: state.local, theirs: layout.elements });
  let next: LayoutSync = { base: layout, local, sent: null, held: [] };
  for (const later of state.held) next = syncRemote(next, later);
  return next;
}

/** syncRefused drops the update in flight that the server refused, and the edits made after it. */
export function syncRefused(state: LayoutSync): LayoutSync {
  let next: LayoutSync = { base: state.base, local: state.base.elements, sent: null, held: [] };
  for (const later of state.held) next = syncRemote(next, later);
  return next;
}

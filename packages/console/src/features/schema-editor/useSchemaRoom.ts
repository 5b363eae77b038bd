import {
  blankLayout,
  type LayoutElement,
  type LayoutSync,
  layoutResponseSchema,
  mergeLayoutElements,
  type PresenceUser,
  type ProjectRole,
  type ServerMessage,
  type StoredLayout,
  serverMessageSchema,
  syncAck,
  syncEdit,
  syncHasUnsent,
  syncRefused,
  syncRemote,
  syncStart,
  syncTakeSend,
} from '@basalt/shared';
import { useCallback, useEffect, useRef, useState } from 'react';
import { MAX_RECONNECT_ATTEMPTS, reconnectDelay } from '@/features/connection/reconnect-schedule';
import { apiJson } from '@/lib/api';
import { errorStatus } from '@/lib/api-errors';
import { getSupabase } from '@/lib/supabase';
import { showToast } from '@/lib/toast';

// The Schema Editor's connection to its project's room on /ws: the layout is
// loaded with GET /api/projects/{id}/schema (a 404, a project without a layout yet, starts a blank canvas
// quietly; any other failure starts one with the spec's warning), then the
// socket joins the room; every edit is sent as schema_layout_update, one at a time (shared schema-layout-sync.ts
// rebases what others send onto the edits not yet answered). When the socket drops the editor says
// Disconnected, reconnects on the spec's schedule, and sends what was edited meanwhile; Save while disconnected
// falls back to an HTTP POST of the layout.

/** RoomStatus is the connection indicator's state. */
export type RoomStatus = 'connecting' | 'connected' | 'disconnected';

const SAVE_FAILED = 'Failed to save schema: Please try again later or check your connection.';

function socketUrl(token: string | undefined): string {
  const protocol = window.location.protocol === 'https:' ? 'wss:' : 'ws:';
  const query = token ? `?access_token=${encodeURIComponent(token)}` : '';
  return `${protocol}//${window.location.host}/ws${query}`;
}

async function accessToken(): Promise<string | undefined> {
  try {
    return (await getSupabase().auth.getSession()).data.session?.access_token;
  } catch {
    return undefined;
  }
}

/** SchemaRoom is what the editor reads and does. */
export interface SchemaRoom {
  elements: LayoutElement[];
  version: number;
  loading: boolean;
  status: RoomStatus;
  role: ProjectRole | null;
  self: string | null;
  users: PresenceUser[];
  edit(change: (elements: LayoutElement[]) => LayoutElement[]): void;
  select(elementIds: string[]): void;
  save(): Promise<void>;
}

/** useSchemaRoom connects the editor to one project's room (none when projectId is undefined). */
export function useSchemaRoom(projectId: string | undefined): SchemaRoom {
  const sync = useRef<LayoutSync>(syncStart(blankLayout()));
  const [view, setView] = useState<{ elements: LayoutElement[]; version: number }>({ elements: [], version: 0 });
  const [loading, setLoading] = useState(false);
  const [status, setStatus] = useState<RoomStatus>('connecting');
  const [role, setRole] = useState<ProjectRole | null>(null);
  const [self, setSelf] = useState<string | null>(null);
  const [users, setUsers] = useState<PresenceUser[]>([]);
  const socket = useRef<WebSocket | null>(null);
  const saveRequested = useRef(false);

  const publish = useCallback(() => {
    setView({ elements: sync.current.local, version: sync.current.base.version });
  }, []);

  // Sends the edits not yet sent, if no update is in flight and the socket is open.
  const flush = useCallback(() => {
    const open = socket.current?.readyState === WebSocket.OPEN;
    if (!open || !projectId) return;
    const { state, outgoing } = syncTakeSend(sync.current);
    if (!outgoing) return;
    sync.current = state;
    socket.current?.send(
      JSON.stringify({
        type: 'schema_layout_update',
        projectId,
        layout: { elements: outgoing.elements, version: outgoing.version, lastModified: null },
        save: saveRequested.current,
        timestamp: Date.now(),
      }),
    );
    saveRequested.current = false;
  }, [projectId]);

  // Folds in the layout a (re)join hands over, keeping edits made while disconnected.
  const adopt = useCallback((layout: StoredLayout) => {
    const current = sync.current;
    if (!syncHasUnsent(current) && current.sent === null) {
      sync.current = syncStart(layout);
      return;
    }
    const local = mergeLayoutElements({ base: current.base.elements, mine: current.local, theirs: layout.elements });
    sync.current = { base: layout, local, sent: null, held: [] };
  }, []);

  const onMessage = useCallback(
    (message: ServerMessage) => {
      switch (message.type) {
        case 'schema_layout_init':
          adopt(message.layout);
          setRole(message.role);
          setSelf(message.self);
          break;
        case 'schema_layout_update':
          sync.current = syncRemote(sync.current, message.layout);
          break;
        case 'schema_layout_saved':
          sync.current = syncAck(sync.current, message.layout);
          break;
        case 'schema_presence':
          setUsers(message.users);
          return;
        case 'error':
          if (sync.current.sent !== null && message.code !== 'not_in_room') {
            sync.current = syncRefused(sync.current);
            showToast({ title: SAVE_FAILED, description: message.message, variant: 'destructive' });
          } else if (message.code === 'removed' || message.code === 'not_a_member') {
            showToast({ title: 'Connection error', description: message.message, variant: 'destructive' });
          }
          break;
      }
      publish();
      flush();
    },
    [adopt, flush, publish],
  );

  // Load with GET, then join the room; reconnect on the spec's schedule.
  useEffect(() => {
    if (!projectId) return;
    let stopped = false;
    let attempt = 0;
    let everConnected = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    sync.current = syncStart(blankLayout());
    setUsers([]);
    setLoading(true);
    publish();

    const connect = async () => {
      const token = await accessToken();
      if (stopped) return;
      setStatus('connecting');
      const ws = new WebSocket(socketUrl(token));
      socket.current = ws;
      let opened = false;
      ws.onopen = () => {
        opened = true;
        attempt = 0;
        // Said when the connection comes back; on opening, the indicator says Connected and the toast that brought
        // the person here ("Project created") stays.
        if (everConnected) showToast({ title: 'Connected to collaboration server', variant: 'success' });
        everConnected = true;
        setStatus('connected');
        ws.send(JSON.stringify({ type: 'join_schema_room', projectId }));
      };
      ws.onmessage = (event) => {
        try {
          const parsed = serverMessageSchema.safeParse(JSON.parse(String(event.data)));
          if (parsed.success) onMessage(parsed.data);
        } catch {
          // A frame this client does not understand is ignored.
        }
      };
      ws.onerror = () => {
        if (!opened && !everConnected && attempt === 0) {
          showToast({ title: 'Failed to connect to the real-time collaboration server', variant: 'destructive' });
        } else if (opened) {
          showToast({ title: 'Connection error', variant: 'destructive' });
        }
      };
      ws.onclose = () => {
        if (socket.current === ws) socket.current = null;
        // An update in flight may or may not have been merged: it is sent again after the rejoin.
        sync.current = { ...sync.current, sent: null, held: [] };
        if (stopped) return;
        setStatus('disconnected');
        setUsers([]);
        if (opened) showToast({ title: 'Disconnected from collaboration server', variant: 'destructive' });
        if (attempt >= MAX_RECONNECT_ATTEMPTS) return;
        timer = setTimeout(() => void connect(), reconnectDelay(attempt++));
      };
    };

    apiJson(layoutResponseSchema, 'GET', `/api/projects/${projectId}/schema`)
      .then(({ layout }) => {
        if (!stopped && sync.current.base.version === 0) adopt(layout);
      })
      .catch((error) => {
        // A project without a layout yet (404) simply starts blank; only a load that failed warns.
        if (stopped || errorStatus(error) === 404) return;
        showToast({ title: 'Warning: Could not load the schema layout. Starting with a blank canvas.' });
      })
      .finally(() => {
        if (stopped) return;
        setLoading(false);
        publish();
        void connect();
      });

    return () => {
      stopped = true;
      clearTimeout(timer);
      socket.current?.close();
      socket.current = null;
    };
  }, [projectId, adopt, onMessage, publish]);

  const edit = useCallback(
    (change: (elements: LayoutElement[]) => LayoutElement[]) => {
      sync.current = syncEdit(sync.current, change(sync.current.local));
      publish();
      flush();
    },
    [flush, publish],
  );

  const lastSelection = useRef('[]');
  const select = useCallback(
    (elementIds: string[]) => {
      if (socket.current?.readyState !== WebSocket.OPEN || !projectId) return;
      const text = JSON.stringify([...elementIds].sort());
      if (text === lastSelection.current) return;
      lastSelection.current = text;
      socket.current.send(JSON.stringify({ type: 'schema_selection', projectId, elementIds }));
    },
    [projectId],
  );

  const save = useCallback(async () => {
    if (!projectId) return;
    if (socket.current?.readyState === WebSocket.OPEN) {
      saveRequested.current = true;
      flush();
      showToast({ title: 'Schema saved', variant: 'success' });
      return;
    }
    // Disconnected: the HTTP fallback, merged by the server like any update.
    const current = sync.current;
    try {
      const { layout } = await apiJson(layoutResponseSchema, 'POST', `/api/projects/${projectId}/schema`, {
        layout: { elements: current.local, version: current.base.version, lastModified: null },
      });
      sync.current = syncAck({ ...sync.current, sent: current.local }, layout);
      publish();
      showToast({ title: 'Schema saved', variant: 'success' });
    } catch {
      showToast({ title: SAVE_FAILED, variant: 'destructive' });
    }
  }, [flush, projectId, publish]);

  return { ...view, loading, status, role, self, users, edit, select, save };
}

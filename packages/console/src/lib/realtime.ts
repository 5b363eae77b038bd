import type { RealtimeChannel, SupabaseClient } from '@supabase/supabase-js';
import { reportNetworkSignal } from './network-signals';
import { getSupabase } from './supabase';

// The console's realtime: supabase-js's one socket to /realtime/v1, a channel per table a page shows (named by id,
// `#<id>`, so that a table shared through a project works like an own one), and the socket's state for the
// connection banner. A channel that fails (the socket closed, the server went away) is a doubt the connection
// monitor checks; while the socket is connected the monitor has no need to poll the server itself.

let watchers = 0;

function failed(status: string) {
  if (status === 'CHANNEL_ERROR' || status === 'TIMED_OUT') reportNetworkSignal('doubt');
}

// Opens a channel once the console's token has reached supabase-js's realtime: it arrives asynchronously, and a
// channel joined before it would be refused (this instance's key needs a signed-in account) and joined again a
// second later. Without a client (the console's component tests) nothing opens.
function openChannel(make: (client: SupabaseClient) => RealtimeChannel): () => void {
  let channel: RealtimeChannel | null = null;
  let stopped = false;
  void Promise.resolve()
    .then(async () => {
      const client = getSupabase();
      await client.realtime.setAuth();
      if (!stopped) channel = make(client);
    })
    .catch(() => {});
  return () => {
    stopped = true;
    if (channel) void getSupabase().removeChannel(channel);
  };
}

/** TableChange is what the console learns of a change: the table's id and name. */
export interface TableChange {
  tableId: number;
  tableName: string;
}

/**
 * watchTable calls `onChange` for every record change of a table (any tab, node or API) until the returned
 * function is called.
 */
export function watchTable(tableId: number, onChange: (change: TableChange) => void): () => void {
  // Topics are per watcher: supabase-js hands back an existing channel of the same topic, already subscribed.
  return openChannel((client) =>
    client
      .channel(`console-table-${tableId}-${++watchers}`)
      .on('postgres_changes', { event: '*', schema: 'public', table: `#${tableId}` }, (payload) =>
        onChange({ tableId, tableName: payload.table }),
      )
      .subscribe(failed),
  );
}

/** keepConnected holds the socket open while the console is signed in, until the returned function is called. */
export function keepConnected(): () => void {
  return openChannel((client) => client.channel(`console-${++watchers}`).subscribe(failed));
}

/** isRealtimeConnected tells whether the realtime socket is open (false before the console has a client). */
export function isRealtimeConnected(): boolean {
  try {
    return getSupabase().realtime.isConnected();
  } catch {
    return false;
  }
}

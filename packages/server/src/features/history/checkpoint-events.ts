// The event saving a checkpoint publishes on the bus (db/bus), heard by the achievements (features/achievements).

/** CheckpointCreated names the account and table of a new checkpoint. */
export interface CheckpointCreated {
  accountId: string;
  tableId: number;
}

declare module '../../db/bus/event-bus.js' {
  interface BusEvents {
    'checkpoint.created': CheckpointCreated;
  }
}

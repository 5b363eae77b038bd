// The event a committed change of an edge function publishes on the bus (db/bus): every node forgets what it
// cached about the function (function-directory.ts) and its process stops once idle, so the next call runs
// what is deployed now.

/** FunctionChanged names the function that was created, changed, deployed, rolled back or deleted. */
export interface FunctionChanged {
  accountId: string;
  functionId: number;
}

declare module '../../db/bus/event-bus.js' {
  interface BusEvents {
    'function.changed': FunctionChanged;
  }
}

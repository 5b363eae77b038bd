// The event a change of an account's plan publishes on the bus (db/bus): every node's usage meter forgets what it
// knew of the account's caps (usage-meter.ts), so the new plan holds everywhere at once.

/** PlanChanged names an account whose plan or subscription changed. */
export interface PlanChanged {
  accountId: string;
}

declare module '../../db/bus/event-bus.js' {
  interface BusEvents {
    'plan.changed': PlanChanged;
  }
}

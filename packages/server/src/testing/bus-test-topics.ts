// The topics the bus's own tests publish. BusEvents is filled by declaration merging, as a feature does.

declare module '../db/bus/event-bus.js' {
  interface BusEvents {
    'bus-test.ping': { n: number };
    'bus-test.pong': { n: number; from: string };
    'bus-test.text': { text: string };
  }
}

/** BUS_TEST_STOP is the ping number that asks a bus test node (testing/bus-node.ts) to close and exit. */
export const BUS_TEST_STOP = -1;

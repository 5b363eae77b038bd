import type { IncomingMessage } from 'node:http';
import type { AdmissionStep, Call, Route } from './route.js';

// Running a route's admission steps: synchronously as far as they go, then waiting where one waits. The early
// runner stops at the first wait, refusal or failure and hands what it has done to Fastify's path (a Handover on
// the request), which goes on from there: no step runs twice, so nothing is counted twice, whichever path answers.

/** Waiting is where admission stopped: the promise of the step that waits, and the index of the step after it. */
export interface Waiting {
  promise: Promise<void>;
  next: number;
}

/**
 * admitFrom runs steps from `from` until one waits (its Waiting is returned) or all have passed (null); a step's
 * refusal is thrown.
 */
export function admitFrom(steps: readonly AdmissionStep[], call: Call, from: number): Waiting | null {
  for (let i = from; i < steps.length; i++) {
    const waiting = (steps[i] as AdmissionStep)(call);
    if (waiting) return { promise: waiting, next: i + 1 };
  }
  return null;
}

/** admitRest waits for a waiting step and runs the steps after it, waiting wherever one waits. */
export async function admitRest(steps: readonly AdmissionStep[], call: Call, waiting: Waiting): Promise<void> {
  let current: Waiting | null = waiting;
  while (current) {
    await current.promise;
    current = admitFrom(steps, call, current.next);
  }
}

/** Outcome is what a route's handler came to on the early path, for Fastify's path to answer. */
export type Outcome = { value: unknown } | { error: unknown };

/**
 * Handover is what the early runner did with a request it hands to Fastify: the route it matched, the call with
 * what the steps learnt, and how far it got: refused, waiting on a step, or admitted with its handler's outcome.
 */
export interface Handover {
  route: Route;
  call: Call;
  refused?: unknown;
  waiting?: Waiting;
  outcome?: Outcome;
}

const HANDOVER = Symbol('basalt.handover');

type WithHandover = IncomingMessage & { [HANDOVER]?: Handover };

/** handOver leaves a Handover on a request for Fastify's path. */
export function handOver(req: IncomingMessage, handover: Handover): void {
  (req as WithHandover)[HANDOVER] = handover;
}

/** takeHandover returns (and removes) a request's Handover for a route, if the early runner left one for it. */
export function takeHandover(req: IncomingMessage, route: Route): Handover | null {
  const handover = (req as WithHandover)[HANDOVER];
  if (!handover) return null;
  (req as WithHandover)[HANDOVER] = undefined;
  // Fastify matched another route than the early runner did: its own admission runs from the start.
  return handover.route === route ? handover : null;
}

import { CONSOLE_CLIENT_HEADER } from '@basalt/shared';
import type { AdmissionStep, Call } from '../../http/routes/route.js';
import type { UsageMeter } from './usage-meter.js';

// Where metering meets the requests: the meter's admission steps. A request to the data and function APIs
// (/rest/v1, /api/table and its short form /api/<name>, /functions/v1, /api/edge) made for an account (its keys,
// its console session or token, its app's keys and users) is one API call, except the console's own calls: a
// console session's request marked with CONSOLE_CLIENT_HEADER (the Dashboard listing the tables, the records grid)
// is the person browsing their data, not their app using it. The mark counts only with a console session: API
// keys, app keys and app users are metered whatever they send. Over the plan's calls it is refused with 429; a
// write to the data APIs is refused with 413 once storage is used up (reads and deletes go on). The routes that are
// metered name the step in their admission, after the caller (and after their own limits: a route may refuse first).

const WRITES = new Set(['POST', 'PUT', 'PATCH']);

/** MeterSteps are the admission steps of metered routes. */
export interface MeterSteps {
  /** data meters a call of the data APIs; writes also need storage left. */
  data: AdmissionStep;
  /** functions meters a call of an edge function. */
  functions: AdmissionStep;
}

const FREE: AdmissionStep = () => {};

/** isConsoleCall tells whether a call is the console's own: a console session's request carrying its mark. */
export function isConsoleCall(call: Pick<Call, 'principal' | 'headers'>): boolean {
  return call.principal.kind === 'user' && call.headers[CONSOLE_CLIENT_HEADER] === '1';
}

function meterStep(meter: UsageMeter, data: boolean): AdmissionStep {
  return (call) => {
    const principal = call.principal;
    if (!('accountId' in principal) || call.method === 'OPTIONS' || isConsoleCall(call)) return;
    const refused = meter.admit(principal.accountId, data && WRITES.has(call.method));
    if (refused === null) return;
    if (refused instanceof Promise) {
      return refused.then((error) => {
        if (error) throw error;
      });
    }
    throw refused;
  };
}

/** meterSteps are the metered routes' steps; with METERING=off (no meter) they admit every call. */
export function meterSteps(meter: UsageMeter | null): MeterSteps {
  if (!meter) return { data: FREE, functions: FREE };
  return { data: meterStep(meter, true), functions: meterStep(meter, false) };
}

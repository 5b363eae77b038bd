import { sqlFunctionSchema } from '@basalt/shared';
import type { z } from 'zod';
import { paramsText, returnsText } from '@/features/sql-functions/sql-function-text';
import type { FieldChange } from './field-change';

// What a SQL function's change did to its definition: per part (statement, parameters, result, call rule, …) the
// text before and after. A state the server stored in another shape simply shows less.

type Definition = z.infer<typeof sqlFunctionSchema>;

const definitionState = sqlFunctionSchema.partial();

// The parts a person wrote, in the form's order, each as text; id, times and the derived mode are left out.
const PARTS: [string, (d: Partial<Definition>) => string | null | undefined][] = [
  ['name', (d) => d.name],
  ['description', (d) => d.description],
  ['parameters', (d) => (d.params ? paramsText(d.params) || '(none)' : undefined)],
  ['returns', (d) => (d.returns ? returnsText(d.returns) : undefined)],
  ['statement', (d) => d.body],
  ['call rule', (d) => d.callRule],
];

const read = (state: unknown) => {
  const parsed = definitionState.safeParse(state);
  return parsed.success ? parsed.data : null;
};

/** diffFunction reads a FUNCTION_* change: the parts of the definition it set, changed or removed. */
export function diffFunction(previousState: unknown, newState: unknown): FieldChange[] {
  const before = read(previousState);
  const after = read(newState);
  return PARTS.flatMap(([field, text]): FieldChange[] => {
    const was = before ? (text(before) ?? null) : undefined;
    const is = after ? (text(after) ?? null) : undefined;
    if (!before) return is ? [{ field, after: is }] : [];
    if (!after) return was ? [{ field, before: was }] : [];
    return was === is ? [] : [{ field, before: was, after: is }];
  });
}

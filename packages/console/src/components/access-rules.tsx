import { ACCESS_RULES, type AccessRule } from '@basalt/shared';
import { ShieldCheck } from 'lucide-react';
import { FormField } from '@/components/ui/form-field';
import { NativeSelect } from '@/components/ui/native-select';

// The console's one editor of access rules (who of an app's callers may do each operation): a plain-words summary
// and one select per operation with the chosen rule said in a sentence below it. Tables' rules (TableAccessTab)
// and buckets' rules (the Storage page) are both this, with their own operations and words.

/** AccessSummary says a set of rules in one sentence, read out when it changes. */
export function AccessSummary({ text }: { text: string }) {
  return (
    <p
      className="flex items-start gap-2 rounded-lg border bg-muted/40 p-3 text-sm"
      data-testid="access-summary"
      aria-live="polite"
    >
      <ShieldCheck aria-hidden className="mt-0.5 size-4 shrink-0 text-primary" />
      <span>{text}.</span>
    </p>
  );
}

/** AccessRuleFields are one select per operation, each with its rule in plain words (from `describe`). */
export function AccessRuleFields<Op extends string>({
  idPrefix,
  operations,
  operationLabels,
  ruleLabels,
  describe,
  value,
  onChange,
}: {
  idPrefix: string;
  operations: readonly Op[];
  operationLabels: Record<Op, string>;
  ruleLabels: Record<AccessRule, string>;
  describe: (operation: Op, rule: AccessRule) => string;
  value: Record<Op, AccessRule>;
  onChange: (operation: Op, rule: AccessRule) => void;
}) {
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      {operations.map((operation) => (
        <FormField
          key={operation}
          id={`${idPrefix}-${operation}`}
          label={operationLabels[operation]}
          hint={<p className="text-xs text-muted-foreground">{describe(operation, value[operation])}.</p>}
        >
          <NativeSelect
            id={`${idPrefix}-${operation}`}
            value={value[operation]}
            onChange={(e) => onChange(operation, e.target.value as AccessRule)}
          >
            {ACCESS_RULES.map((rule) => (
              <option key={rule} value={rule}>
                {ruleLabels[rule]}
              </option>
            ))}
          </NativeSelect>
        </FormField>
      ))}
    </div>
  );
}

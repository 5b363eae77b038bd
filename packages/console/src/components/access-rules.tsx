import { ACCESS_RULES, type AccessRule } from '@basalt/shared';
import { ShieldCheck } from 'lucide-react';
import { FormField } from '@/components/ui/form-field';
import { NativeSelect } from '@/components/ui/native-select';

// The console's one editor of access rules (who of an app's callers may do each operation): a plain-words summary
// and one select per operation with the chosen rule said in a sentence below it. Tables' rules (TableAccessTab)
// and buckets' rules (the Storage page) are both this, with their own operations and words.

const RULE_LABELS: Record<Exclude<AccessRule, 'own'>, string> = {
  nobody: 'Only you',
  authenticated: 'Signed-in users',
  public: 'Anyone, even signed out',
};

/** AccessSummary says a set of rules in one sentence, read out when it changes. */
function AccessSummary({ text }: { text: string }) {
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

/**
 * AccessRuleWords are one kind of rules in words: the operations, their labels, what `own` means there, one rule said
 * in a sentence (`describe`) and all of them in one (`summarize`). Each feature declares its own once.
 */
export interface AccessRuleWords<Op extends string, Value extends Record<Op, AccessRule>> {
  operations: readonly Op[];
  operationLabels: Record<Op, string>;
  /** ownLabel names the `own` rule ("Own rows only", "Own folder only"); the other rules read the same everywhere. */
  ownLabel: string;
  describe: (operation: Op, rule: AccessRule) => string;
  summarize: (value: Value) => string;
}

/** AccessRulesEditor is the whole editor of a set of rules: the summary, then one select per operation. */
export function AccessRulesEditor<Op extends string, Value extends Record<Op, AccessRule>>({
  idPrefix,
  words,
  value,
  onChange,
}: {
  idPrefix: string;
  words: AccessRuleWords<Op, Value>;
  value: Value;
  onChange: (operation: Op, rule: AccessRule) => void;
}) {
  return (
    <>
      <AccessSummary text={words.summarize(value)} />
      <div className="grid gap-4 sm:grid-cols-2">
        {words.operations.map((operation) => (
          <FormField
            key={operation}
            id={`${idPrefix}-${operation}`}
            label={words.operationLabels[operation]}
            hint={<p className="text-xs text-muted-foreground">{words.describe(operation, value[operation])}.</p>}
          >
            <NativeSelect
              id={`${idPrefix}-${operation}`}
              value={value[operation]}
              onChange={(e) => onChange(operation, e.target.value as AccessRule)}
            >
              {ACCESS_RULES.map((rule) => (
                <option key={rule} value={rule}>
                  {rule === 'own' ? words.ownLabel : RULE_LABELS[rule]}
                </option>
              ))}
            </NativeSelect>
          </FormField>
        ))}
      </div>
    </>
  );
}

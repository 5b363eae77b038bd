import {
  ACCESS_OPERATIONS,
  type AccessOperation,
  type AccessRule,
  DEFAULT_TABLE_ACCESS,
  describeAccess,
  describeRule,
  sameAccess,
  type TableAccess,
  type TableResponse,
  usesOwnRows,
} from '@basalt/shared';
import { useState } from 'react';
import { Link } from 'react-router';
import { AccessRulesEditor, type AccessRuleWords } from '@/components/access-rules';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { FormField } from '@/components/ui/form-field';
import { NativeSelect } from '@/components/ui/native-select';
import { ApiError } from '@/lib/api-errors';
import { useUpdateTableAccessMutation } from './table-access.queries';

// A table's rules in words, for the rules editor (components/access-rules.tsx).
const TABLE_RULE_WORDS: AccessRuleWords<AccessOperation, TableAccess> = {
  operations: ACCESS_OPERATIONS,
  operationLabels: { select: 'Read rows', insert: 'Add rows', update: 'Change rows', delete: 'Delete rows' },
  ownLabel: 'Own rows only',
  describe: describeRule,
  summarize: describeAccess,
};

/**
 * TableAccessTab shows and edits who of the app's users may read and write the table's rows, in plain words
 * ("Anyone signed in to your app can read; each user edits only their own rows"). The owner, its API keys and the
 * app service key always have full access.
 */
export function TableAccessTab({ table }: { table: TableResponse }) {
  const saved = table.access ?? DEFAULT_TABLE_ACCESS;
  const [draft, setDraft] = useState<TableAccess>(saved);
  const save = useUpdateTableAccessMutation(table);
  const textColumns = Object.entries(table.schema)
    .filter(([, column]) => column.type === 'text')
    .map(([name]) => name);
  const own = usesOwnRows(draft);
  // A column named for its job is the likely owner column; any text column will do.
  const likelyOwner = textColumns.find((name) => /owner|user/i.test(name)) ?? textColumns[0] ?? null;
  const ownerColumn = own ? (draft.ownerColumn ?? likelyOwner) : null;
  const next: TableAccess = { ...draft, ownerColumn };
  const changed = !sameAccess(next, saved);
  const missingOwner = own && ownerColumn === null;
  const serverError =
    save.error instanceof ApiError ? save.error.validationErrors?.['access.ownerColumn']?.[0] : undefined;

  const setRule = (operation: AccessOperation, rule: AccessRule) =>
    setDraft((current) => ({ ...current, [operation]: rule }));

  return (
    <Card>
      <CardHeader>
        <CardTitle>Access rules</CardTitle>
        <CardDescription>
          Who of your app's users may use this table through <code className="font-mono text-xs">/rest/v1</code> with
          your app keys. You, your API keys and the app service key always have full access.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-5">
        <AccessRulesEditor idPrefix="access" words={TABLE_RULE_WORDS} value={next} onChange={setRule} />
        {own && (
          <FormField
            id="access-owner"
            label="Owner column"
            error={missingOwner ? 'Add a text column (for example "owner") to hold each row\'s user id.' : serverError}
            hint={
              <p className="text-xs text-muted-foreground">
                The text column holding each row's user id. Basalt fills it in when a user adds a row, and refuses a row
                that names someone else.
              </p>
            }
          >
            {textColumns.length > 0 ? (
              <NativeSelect
                id="access-owner"
                value={ownerColumn ?? ''}
                onChange={(e) => setDraft((current) => ({ ...current, ownerColumn: e.target.value }))}
              >
                {textColumns.map((name) => (
                  <option key={name} value={name}>
                    {name}
                  </option>
                ))}
              </NativeSelect>
            ) : (
              <Button asChild variant="outline" size="sm" className="w-fit">
                <Link to={`/tables/${table.id}/edit`}>Add a text column</Link>
              </Button>
            )}
          </FormField>
        )}
      </CardContent>
      <CardFooter className="justify-end gap-2">
        <Button variant="outline" disabled={!changed || save.isPending} onClick={() => setDraft(saved)}>
          Reset
        </Button>
        <Button disabled={!changed || missingOwner || save.isPending} onClick={() => save.mutate(next)}>
          {save.isPending ? 'Saving...' : 'Save rules'}
        </Button>
      </CardFooter>
    </Card>
  );
}

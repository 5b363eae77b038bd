import type { StoredFile } from '@basalt/shared';
import { Upload } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { FormField } from '@/components/ui/form-field';
import { NativeSelect } from '@/components/ui/native-select';
import { Textarea } from '@/components/ui/textarea';

/** parseVariables reads `name=value` lines into variableReplacements (blank lines and # comments skipped). */
export function parseVariables(text: string): Record<string, string> {
  const values: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    if (!trimmed || trimmed.startsWith('#')) continue;
    const at = trimmed.indexOf('=');
    if (at > 0) values[trimmed.slice(0, at).trim()] = trimmed.slice(at + 1);
  }
  return values;
}

const size = (bytes: number) => (bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KB`);

/** FileRunTab picks one of the project's SQL files and its variables, and runs it. */
export function FileRunTab({
  files,
  fileId,
  onFileChange,
  variables,
  onVariablesChange,
  onUpload,
  onRun,
  running,
  canRun,
  dryRun,
}: {
  files: StoredFile[];
  fileId: number | null;
  onFileChange: (id: number | null) => void;
  variables: string;
  onVariablesChange: (text: string) => void;
  onUpload: () => void;
  onRun: () => void;
  running: boolean;
  canRun: boolean;
  dryRun: boolean;
}) {
  if (files.length === 0) {
    return (
      <EmptyState
        icon={Upload}
        title="No SQL files yet"
        description="Upload a .sql file to this project to run or validate it."
        action={<Button onClick={onUpload}>Upload SQL File</Button>}
      />
    );
  }
  const selected = files.find((f) => f.id === fileId);
  return (
    <div className="grid gap-4">
      <FormField id="sql-file" label="SQL file">
        <NativeSelect
          id="sql-file"
          value={fileId ?? ''}
          onChange={(e) => onFileChange(e.target.value ? Number(e.target.value) : null)}
        >
          <option value="">Select a SQL file</option>
          {files.map((f) => (
            <option key={f.id} value={f.id}>
              {f.fileName} ({size(f.fileSize)})
            </option>
          ))}
        </NativeSelect>
      </FormField>
      {selected?.metadata.description && (
        <p className="text-sm text-muted-foreground">{selected.metadata.description}</p>
      )}
      <FormField
        id="sql-variables"
        label="Variables"
        hint={
          <p className="text-xs text-muted-foreground">
            One <code>name=value</code> per line; <code>{'{{name}}'}</code> in the file becomes the quoted value.
          </p>
        }
      >
        <Textarea
          id="sql-variables"
          rows={3}
          className="font-mono text-xs"
          value={variables}
          placeholder="schema_owner=app"
          onChange={(e) => onVariablesChange(e.target.value)}
        />
      </FormField>
      <div className="flex flex-wrap gap-2">
        <Button disabled={!canRun || !fileId || running} onClick={onRun}>
          {running ? 'Executing...' : dryRun ? 'Validate SQL File' : 'Execute SQL File'}
        </Button>
      </div>
    </div>
  );
}

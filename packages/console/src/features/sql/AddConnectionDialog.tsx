import {
  type CreateConnectionInput,
  createConnectionSchema,
  DATABASE_PROVIDERS,
  type DatabaseConnection,
} from '@basalt/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { DialogForm, FormDialog } from '@/components/ui/form-dialog';
import { FormField, fieldAria } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';
import { PasswordInput } from '@/components/ui/password-input';
import { useCreateConnectionMutation } from './sql.queries';

/** AddConnectionDialog registers a database connection by its URL; the password is stored encrypted. */
export function AddConnectionDialog({
  projectId,
  open,
  onOpenChange,
  onCreated,
}: {
  projectId: string | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onCreated: (connection: DatabaseConnection) => void;
}) {
  const creation = useCreateConnectionMutation(projectId);
  const form = useForm<CreateConnectionInput>({
    resolver: zodResolver(createConnectionSchema),
    defaultValues: { name: '', provider: 'CUSTOM', engine: 'POSTGRESQL', connectionString: '' },
  });
  const errors = form.formState.errors;
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Add database connection"
      description="The password is stored encrypted and never shown again."
    >
      <DialogForm
        onCancel={() => onOpenChange(false)}
        submitLabel="Add connection"
        pendingLabel="Adding..."
        pending={creation.isPending}
        onSubmit={form.handleSubmit((input) =>
          creation.mutate(input, {
            onSuccess: (connection) => {
              onCreated(connection);
              form.reset();
              onOpenChange(false);
            },
          }),
        )}
      >
        <FormField id="connection-name" label="Name" error={errors.name?.message}>
          <Input
            {...fieldAria('connection-name', errors.name?.message)}
            autoComplete="off"
            {...form.register('name')}
          />
        </FormField>
        <div className="grid gap-4 sm:grid-cols-2">
          <FormField id="connection-engine" label="Engine">
            <NativeSelect id="connection-engine" {...form.register('engine')}>
              <option value="POSTGRESQL">PostgreSQL</option>
              <option value="MYSQL">MySQL / MariaDB</option>
            </NativeSelect>
          </FormField>
          <FormField id="connection-provider" label="Provider">
            <NativeSelect id="connection-provider" {...form.register('provider')}>
              {/* CURSOR stays readable for connections saved with it, but is no database provider to offer. */}
              {DATABASE_PROVIDERS.filter((p) => p !== 'CURSOR').map((p) => (
                <option key={p} value={p}>
                  {p.charAt(0) + p.slice(1).toLowerCase()}
                </option>
              ))}
            </NativeSelect>
          </FormField>
        </div>
        <FormField id="connection-string" label="Connection string" error={errors.connectionString?.message}>
          {/* It carries the database password: hidden while typed, like any password, unless asked to show. */}
          <PasswordInput
            {...fieldAria('connection-string', errors.connectionString?.message)}
            autoComplete="off"
            spellCheck={false}
            placeholder="postgres://user:password@host:5432/database"
            className="font-mono text-[13px]"
            {...form.register('connectionString')}
          />
        </FormField>
      </DialogForm>
    </FormDialog>
  );
}

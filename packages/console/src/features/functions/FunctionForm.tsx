import {
  type CreateEdgeFunctionInput,
  createEdgeFunctionSchema,
  DEFAULT_FUNCTION_CODE,
  DEFAULT_FUNCTION_ROUTE,
  EDGE_ROUTE_PREFIX,
  type EdgeFunction,
} from '@basalt/shared';
import { javascript } from '@codemirror/lang-javascript';
import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm } from 'react-hook-form';
import { CodeField } from '@/components/code-field';
import { EditorForm } from '@/components/ui/form-dialog';
import { FormField, fieldAria } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { InputField } from '@/components/ui/input-field';
import { Label } from '@/components/ui/label';
import { Switch } from '@/components/ui/switch';

// The fields of a function (created with the default template, a route from its name and active on; a name is
// required, and "Function code is required"), validated with the server's own schema.

// One language value for every editor: a new one would reconfigure the editor on each render.
const TYPESCRIPT = javascript({ typescript: true });

/** FunctionFormValues are the form's fields. */
export type FunctionFormValues = CreateEdgeFunctionInput;

/** routeOf is a new function's route from its name: `/api/edge/<name>`, the characters a route may hold. */
export function routeOf(name: string): string {
  const slug = name
    .trim()
    .replace(/[^A-Za-z0-9_-]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return slug ? `${EDGE_ROUTE_PREFIX}${slug}` : DEFAULT_FUNCTION_ROUTE;
}

function defaultsOf(fn: EdgeFunction | null): FunctionFormValues {
  return fn
    ? { name: fn.name, code: fn.code, route: fn.route, isActive: fn.isActive, verifyJwt: fn.verifyJwt }
    : { name: '', code: DEFAULT_FUNCTION_CODE, route: DEFAULT_FUNCTION_ROUTE, isActive: true, verifyJwt: true };
}

function SwitchField({
  id,
  label,
  hint,
  checked,
  onChange,
}: {
  id: string;
  label: string;
  hint: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
}) {
  return (
    <div className="flex items-start gap-3">
      <Switch id={id} checked={checked} onCheckedChange={onChange} className="mt-0.5" />
      <div className="grid gap-0.5">
        <Label htmlFor={id}>{label}</Label>
        <p className="text-xs text-muted-foreground">{hint}</p>
      </div>
    </div>
  );
}

/** FunctionForm edits a function's name, route, switches and code; `fn` null creates one. */
export function FunctionForm({
  fn,
  pending,
  submitLabel,
  onSubmit,
  onCancel,
}: {
  fn: EdgeFunction | null;
  pending: boolean;
  submitLabel: string;
  onSubmit: (values: FunctionFormValues) => void;
  onCancel: () => void;
}) {
  const form = useForm<FunctionFormValues>({
    resolver: zodResolver(createEdgeFunctionSchema),
    defaultValues: defaultsOf(fn),
  });
  const { errors } = form.formState;
  return (
    <EditorForm onSubmit={form.handleSubmit(onSubmit)} onCancel={onCancel} submitLabel={submitLabel} pending={pending}>
      <div className="grid gap-4 sm:grid-cols-2">
        <InputField
          id="function-name"
          label="Name"
          error={errors.name?.message}
          placeholder="my-function"
          {...form.register('name', {
            // A new function's route follows its name until the person edits the route: two functions made
            // one after the other do not both claim /api/edge/my-function.
            onChange: (e) => {
              if (!fn && !form.getFieldState('route').isDirty) form.setValue('route', routeOf(e.target.value));
            },
          })}
        />
        <InputField
          id="function-route"
          label="Route"
          error={errors.route?.message}
          className="font-mono text-[13px]"
          {...form.register('route')}
        />
      </div>
      <div className="grid gap-3 sm:grid-cols-2">
        <Controller
          control={form.control}
          name="isActive"
          render={({ field }) => (
            <SwitchField
              id="function-active"
              label="Active"
              hint="Inactive functions answer 404."
              checked={field.value ?? true}
              onChange={field.onChange}
            />
          )}
        />
        <Controller
          control={form.control}
          name="verifyJwt"
          render={({ field }) => (
            <SwitchField
              id="function-verify-jwt"
              label="Require a signed-in caller"
              hint="Callers send a JWT of this account: its app's anon key or a user's token, a session token or an API key."
              checked={field.value ?? true}
              onChange={field.onChange}
            />
          )}
        />
      </div>
      <CodeField
        control={form.control}
        name="code"
        id="function-code"
        label="Code"
        ariaLabel="Function code"
        language={TYPESCRIPT}
        error={errors.code?.message}
        className="h-72 sm:h-80"
      />
    </EditorForm>
  );
}

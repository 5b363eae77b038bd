import type { ComponentProps, FormEvent, ReactNode } from 'react';
import { cn } from '@/lib/cn';
import { Button } from './button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from './dialog';

// The console's one shell for a form in a dialog: a title and a description, the form's fields, then Cancel and
// the submit button, which reads its pending label and is disabled while the call runs. FormDialog mounts its
// body only while open, so each opening starts a fresh form (react-hook-form's state lives in the body).

/** FormDialog is a modal with a title and description whose body (usually a DialogForm) exists only while open. */
export function FormDialog({
  open,
  onOpenChange,
  title,
  description,
  className,
  onInteractOutside,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  description?: ReactNode;
  className?: string;
  onInteractOutside?: ComponentProps<typeof DialogContent>['onInteractOutside'];
  children: ReactNode;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className={className} onInteractOutside={onInteractOutside}>
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          {description && <DialogDescription>{description}</DialogDescription>}
        </DialogHeader>
        {open && children}
      </DialogContent>
    </Dialog>
  );
}

/** DialogForm is a FormDialog's form: the fields, then Cancel and the submit button with its pending label. */
export function DialogForm({
  onSubmit,
  onCancel,
  submitLabel,
  pendingLabel,
  pending = false,
  submitDisabled = false,
  destructive = false,
  browserValidation = false,
  className,
  children,
  ...props
}: {
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  onCancel: () => void;
  submitLabel: string;
  pendingLabel?: string;
  pending?: boolean;
  submitDisabled?: boolean;
  destructive?: boolean;
  /** browserValidation lets the browser check `required` fields first (the record form); off by default. */
  browserValidation?: boolean;
  className?: string;
  children: ReactNode;
  'aria-label'?: string;
}) {
  return (
    <form
      noValidate={!browserValidation}
      className={cn('grid grid-cols-1 gap-4', className)}
      aria-label={props['aria-label']}
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit(event);
      }}
    >
      {children}
      <DialogFooter>
        <Button type="button" variant="outline" disabled={pending && destructive} onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" variant={destructive ? 'destructive' : 'default'} disabled={pending || submitDisabled}>
          {pending ? (pendingLabel ?? submitLabel) : submitLabel}
        </Button>
      </DialogFooter>
    </form>
  );
}

/**
 * EditorForm is the DialogForm of a dialog that creates or edits one definition (a function, an SQL function): its
 * fields scroll inside the dialog, and its submit button says "Saving..." while the call runs.
 */
export function EditorForm(props: Omit<ComponentProps<typeof DialogForm>, 'pendingLabel' | 'className'>) {
  return <DialogForm className="min-h-0" pendingLabel="Saving..." {...props} />;
}

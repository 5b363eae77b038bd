import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { DialogForm, FormDialog } from '@/components/ui/form-dialog';
import { FormField, fieldAria } from '@/components/ui/form-field';
import { InputField, SelectField } from '@/components/ui/input-field';
import { Textarea } from '@/components/ui/textarea';
import { useUploadSqlFileMutation } from './sql.queries';

// The upload needs a project and a .sql file; the description is optional.
const uploadFormSchema = z.object({
  projectId: z.string().min(1, 'Select a project'),
  file: z
    .instanceof(FileList, { message: 'Choose a .sql file' })
    .refine((files) => files.length === 1, 'Choose a .sql file')
    .refine((files) => /\.sql$/i.test(files[0]?.name ?? ''), 'Only .sql files can be uploaded'),
  description: z.string().max(500, 'Description cannot exceed 500 characters'),
});
type UploadForm = z.infer<typeof uploadFormSchema>;

/** UploadSqlFileDialog uploads a .sql file to a project, with a description. */
export function UploadSqlFileDialog({
  projects,
  projectId,
  open,
  onOpenChange,
  onUploaded,
}: {
  projects: Array<{ id: string; name: string }>;
  projectId: string | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onUploaded: (projectId: string, fileId: number) => void;
}) {
  const upload = useUploadSqlFileMutation();
  const form = useForm<UploadForm>({
    resolver: zodResolver(uploadFormSchema),
    defaultValues: { projectId: projectId ?? '', description: '' },
  });
  useEffect(() => {
    if (open) form.reset({ projectId: projectId ?? '', description: '' });
  }, [open, projectId, form]);
  const errors = form.formState.errors;
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Upload SQL File"
      description="Add a .sql file to a project, then run or validate it."
    >
      <DialogForm
        onCancel={() => onOpenChange(false)}
        submitLabel="Upload"
        pendingLabel="Uploading..."
        pending={upload.isPending}
        onSubmit={form.handleSubmit((values) => {
          const file = values.file[0];
          if (!file) return;
          upload.mutate(
            { projectId: values.projectId, file, description: values.description },
            {
              onSuccess: (stored) => {
                onUploaded(stored.projectId, stored.id);
                onOpenChange(false);
              },
            },
          );
        })}
      >
        <SelectField
          id="upload-project"
          label="Project"
          error={errors.projectId?.message}
          {...form.register('projectId')}
        >
          <option value="">Select a project</option>
          {projects.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
            </option>
          ))}
        </SelectField>
        <InputField
          id="upload-file"
          label="SQL file"
          error={errors.file?.message}
          type="file"
          accept=".sql,application/sql,text/plain"
          className="pt-1.5"
          {...form.register('file')}
        />
        <FormField id="upload-description" label="Description" error={errors.description?.message}>
          <Textarea
            {...fieldAria('upload-description', errors.description?.message)}
            rows={3}
            placeholder="What this file does (optional)"
            {...form.register('description')}
          />
        </FormField>
      </DialogForm>
    </FormDialog>
  );
}

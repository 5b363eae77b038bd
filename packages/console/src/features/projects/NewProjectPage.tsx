import { type CreateProjectInput, createProjectSchema } from '@basalt/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { FormField, fieldAria } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { PageHeader } from '@/components/ui/page-header';
import { Textarea } from '@/components/ui/textarea';
import { useCreateProjectMutation } from './projects.queries';

/** NewProjectPage is /projects/new: name and optional description. */
export function NewProjectPage() {
  const navigate = useNavigate();
  const creation = useCreateProjectMutation();
  const form = useForm<CreateProjectInput>({
    resolver: zodResolver(createProjectSchema),
    defaultValues: { name: '', description: '' },
  });
  const nameError = form.formState.errors.name?.message;
  const descriptionError = form.formState.errors.description?.message;
  return (
    <div className="mx-auto grid w-full max-w-xl gap-6">
      <PageHeader title="New Project" description="A project is a team workspace with its own schema design." />
      <Card>
        <CardContent className="pt-5 sm:pt-6">
          <form
            noValidate
            className="grid gap-4"
            onSubmit={form.handleSubmit((input) =>
              creation.mutate(input, {
                onSuccess: (project) => navigate(`/schema-editor?project=${project.id}`),
              }),
            )}
          >
            <FormField id="project-name" label="Name" error={nameError}>
              <Input
                {...fieldAria('project-name', nameError)}
                placeholder="My app"
                autoComplete="off"
                {...form.register('name')}
              />
            </FormField>
            <FormField id="project-description" label="Description (optional)" error={descriptionError}>
              <Textarea
                {...fieldAria('project-description', descriptionError)}
                rows={3}
                {...form.register('description')}
              />
            </FormField>
            <div className="flex justify-end gap-2">
              <Button variant="outline" type="button" onClick={() => navigate('/schema-editor')}>
                Cancel
              </Button>
              <Button type="submit" disabled={creation.isPending}>
                {creation.isPending ? 'Creating...' : 'Create Project'}
              </Button>
            </div>
          </form>
        </CardContent>
      </Card>
    </div>
  );
}

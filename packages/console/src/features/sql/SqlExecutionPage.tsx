import { FolderPlus, Upload } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { CodeEditor } from '@/components/code-editor';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { NativeSelect } from '@/components/ui/native-select';
import { PageHeader } from '@/components/ui/page-header';
import { CenteredSpinner } from '@/components/ui/spinner';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { FileRunTab } from './FileRunTab';
import { QueryHistoryPanel } from './QueryHistoryPanel';
import { SqlOptionsPanel } from './SqlOptionsPanel';
import { SqlResultsPanel } from './SqlResultsPanel';
import { useSqlLanguage } from './sql-language';
import { UploadSqlFileDialog } from './UploadSqlFileDialog';
import { type SqlTab, useSqlWorkspace } from './useSqlWorkspace';

/** SqlExecutionPage runs a project's SQL files, or SQL typed in an editor, against one of its database connections. */
export function SqlExecutionPage() {
  const w = useSqlWorkspace();
  const [uploading, setUploading] = useState(false);
  const language = useSqlLanguage(w.connection?.engine === 'MYSQL' ? 'mysql' : 'postgres', w.tables);
  const projects = w.projects.data ?? [];

  const header = (
    <PageHeader
      title="SQL Execution"
      description="Run SQL files or statements against a project's database, with a dry run to validate first."
      actions={
        projects.length > 0 && (
          <>
            <NativeSelect
              aria-label="Project"
              containerClassName="w-auto min-w-40"
              value={w.projectId ?? ''}
              onChange={(e) => w.setProjectId(e.target.value || null)}
            >
              {projects.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name}
                </option>
              ))}
            </NativeSelect>
            <Button onClick={() => setUploading(true)}>
              <Upload aria-hidden /> Upload SQL File
            </Button>
          </>
        )
      }
    />
  );

  if (w.projects.isPending) {
    return (
      <div className="grid gap-6">
        {header}
        <CenteredSpinner label="Loading projects" />
      </div>
    );
  }

  if (projects.length === 0) {
    return (
      <div className="grid gap-6">
        {header}
        <Card>
          <EmptyState
            icon={FolderPlus}
            title="No projects yet"
            description="SQL files and database connections belong to a project."
            action={
              <Button asChild>
                <Link to="/projects/new">Create a project</Link>
              </Button>
            }
          />
        </Card>
      </div>
    );
  }

  return (
    <div className="grid gap-6">
      {header}
      <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <div className="grid min-w-0 gap-6">
          <Card>
            <CardContent className="pt-5 sm:pt-6">
              <Tabs value={w.tab} onValueChange={(tab) => w.setTab(tab as SqlTab)}>
                <TabsList className="mb-4 w-full sm:w-auto">
                  <TabsTrigger value="file">File-based</TabsTrigger>
                  <TabsTrigger value="direct">Direct SQL</TabsTrigger>
                </TabsList>
                <TabsContent value="file">
                  <FileRunTab
                    files={w.files.data ?? []}
                    fileId={w.fileId}
                    onFileChange={w.setFileId}
                    variables={w.variables}
                    onVariablesChange={w.setVariables}
                    onUpload={() => setUploading(true)}
                    onRun={w.runFile}
                    running={w.running}
                    canRun={w.canRun}
                    dryRun={w.options.dryRun}
                  />
                </TabsContent>
                <TabsContent value="direct" className="grid gap-4">
                  <CodeEditor
                    ariaLabel="SQL query"
                    value={w.sql}
                    onChange={w.setSql}
                    language={language}
                    placeholder="SELECT * FROM …"
                    wrap
                    onRun={w.runDirect}
                    className="min-h-48 [&_.cm-editor]:min-h-48 [&_.cm-scroller]:max-h-96"
                  />
                  {w.directErrors.sql && (
                    <p role="alert" className="-mt-2 text-[13px] font-medium text-destructive">
                      {w.directErrors.sql}
                    </p>
                  )}
                  <div className="flex flex-wrap items-center gap-2">
                    <Button disabled={w.running} onClick={w.runDirect}>
                      {w.running ? 'Executing...' : w.options.dryRun ? 'Validate SQL' : 'Execute SQL'}
                    </Button>
                    <span className="text-xs text-muted-foreground">Ctrl+Enter runs the editor's SQL</span>
                  </div>
                </TabsContent>
              </Tabs>
            </CardContent>
          </Card>
          <SqlResultsPanel result={w.result} onClear={w.clearResult} />
        </div>
        <div className="grid min-w-0 gap-6">
          <SqlOptionsPanel
            projectId={w.projectId}
            connections={w.connections}
            connectionId={w.connectionId}
            onConnectionChange={w.setConnectionId}
            connectionError={w.tab === 'direct' ? w.directErrors.connectionId : undefined}
            options={w.options}
            onOptionsChange={w.setOptions}
          />
          <QueryHistoryPanel entries={w.history} onRerun={w.rerun} onOpen={w.open} running={w.running} />
        </div>
      </div>
      <UploadSqlFileDialog
        projects={projects}
        projectId={w.projectId}
        open={uploading}
        onOpenChange={setUploading}
        onUploaded={(projectId, fileId) => {
          w.setProjectId(projectId);
          w.setTab('file');
          setTimeout(() => w.setFileId(fileId), 0);
        }}
      />
    </div>
  );
}

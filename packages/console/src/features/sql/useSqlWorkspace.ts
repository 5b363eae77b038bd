import { executeDirectSqlSchema, type QueryHistoryEntry, type SqlExecutionResult } from '@basalt/shared';
import { useMemo, useState } from 'react';
import { parseVariables } from './FileRunTab';
import { DEFAULT_RUN_OPTIONS, type RunOptions, timeoutError } from './SqlOptionsPanel';
import {
  useConnectionsQuery,
  useConnectionTablesQuery,
  useExecuteDirectSqlMutation,
  useExecuteSqlFileMutation,
  useProjectsQuery,
  useQueryHistoryQuery,
  useSqlFilesQuery,
} from './sql.queries';

/** SqlTab is one of the page's two tabs. */
export type SqlTab = 'file' | 'direct';

/** DirectSqlErrors are the Direct SQL run's messages, shown once Execute was pressed: its SQL and its connection. */
export interface DirectSqlErrors {
  sql?: string;
  connectionId?: string;
}

/** useSqlWorkspace holds the SQL Execution page's state: the project, its files and connections, and the runs. */
export function useSqlWorkspace() {
  const projects = useProjectsQuery();
  const [chosenProject, setProjectId] = useState<string | null>(null);
  const projectId = chosenProject ?? projects.data?.[0]?.id ?? null;
  const files = useSqlFilesQuery(projectId);
  const connections = useConnectionsQuery(projectId);
  const history = useQueryHistoryQuery(projectId);
  const [chosenConnection, setConnectionId] = useState<number | null>(null);
  const connectionList = connections.data ?? [];
  const connectionId =
    chosenConnection !== null && connectionList.some((c) => c.id === chosenConnection)
      ? chosenConnection
      : (connectionList.find((c) => c.isActive)?.id ?? null);
  const connection = connectionList.find((c) => c.id === connectionId) ?? null;
  const tables = useConnectionTablesQuery(projectId, connectionId);
  const [options, setOptions] = useState<RunOptions>(DEFAULT_RUN_OPTIONS);
  const [tab, setTab] = useState<SqlTab>('file');
  const [fileId, setFileId] = useState<number | null>(null);
  const [variables, setVariables] = useState('');
  const [sql, setSql] = useState('');
  const [result, setResult] = useState<SqlExecutionResult | null>(null);
  const [directErrors, setDirectErrors] = useState<DirectSqlErrors>({});
  const fileRun = useExecuteSqlFileMutation(projectId);
  const directRun = useExecuteDirectSqlMutation(projectId);

  // A project's runs, files and connection choice do not carry over to another project.
  const chooseProject = (id: string | null) => {
    if (id === projectId) return;
    setProjectId(id);
    setFileId(null);
    setConnectionId(null);
    setResult(null);
  };

  const running = fileRun.isPending || directRun.isPending;
  const canRun = Boolean(projectId && connectionId) && !timeoutError(options.timeout) && !running;
  const onSuccess = (answer: SqlExecutionResult) => setResult(answer);

  const runFile = (id = fileId, onConnection = connectionId, dryRun = options.dryRun) => {
    if (!id) return;
    fileRun.mutate(
      {
        fileId: id,
        ...(onConnection ? { connectionId: onConnection } : {}),
        options: { ...options, dryRun, variableReplacements: parseVariables(variables) },
      },
      { onSuccess },
    );
  };
  // Execute is always there to press, as a form's submit: what is missing is said by the shared schema's messages.
  const runDirect = (text = sql, onConnection = connectionId, dryRun = options.dryRun) => {
    if (running) return;
    const input = { sql: text, connectionId: onConnection ?? undefined, options: { ...options, dryRun } };
    const checked = executeDirectSqlSchema.safeParse(input);
    if (!checked.success) {
      const messageOf = (field: keyof DirectSqlErrors) =>
        checked.error.issues.find((issue) => issue.path[0] === field)?.message;
      setDirectErrors({ sql: messageOf('sql'), connectionId: messageOf('connectionId') });
      return;
    }
    setDirectErrors({});
    directRun.mutate({ ...input, connectionId: checked.data.connectionId }, { onSuccess });
  };
  // A run again is the same run: its file or SQL, its connection, and a dry run stays a dry run.
  const rerun = (entry: QueryHistoryEntry) => {
    if (entry.fileId !== null) runFile(entry.fileId, entry.connectionId, entry.dryRun);
    else runDirect(entry.query, entry.connectionId, entry.dryRun);
  };
  const open = (entry: QueryHistoryEntry) => {
    setTab('direct');
    setSql(entry.query);
    if (entry.connectionId !== null) setConnectionId(entry.connectionId);
  };

  return {
    projects,
    projectId,
    setProjectId: chooseProject,
    files,
    connections: connectionList,
    connectionId,
    connection,
    setConnectionId: (id: number | null) => {
      setConnectionId(id);
      setDirectErrors(({ sql: sqlError }) => ({ sql: sqlError }));
    },
    tables: useMemo(() => tables.data?.tables ?? [], [tables.data]),
    history: history.data ?? [],
    options,
    setOptions,
    tab,
    setTab,
    fileId,
    setFileId,
    variables,
    setVariables,
    sql,
    setSql: (text: string) => {
      setSql(text);
      setDirectErrors(({ connectionId: connectionError }) => ({ connectionId: connectionError }));
    },
    directErrors,
    result,
    clearResult: () => setResult(null),
    running,
    canRun,
    runFile: () => runFile(),
    runDirect: () => runDirect(),
    rerun,
    open,
  };
}

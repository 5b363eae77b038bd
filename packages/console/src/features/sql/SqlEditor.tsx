import { MySQL, PostgreSQL, sql } from '@codemirror/lang-sql';
import { HighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { Compartment, EditorState } from '@codemirror/state';
import { EditorView, keymap, placeholder } from '@codemirror/view';
import { tags } from '@lezer/highlight';
import { basicSetup } from 'codemirror';
import { useEffect, useRef } from 'react';

// The Direct SQL editor: CodeMirror 6 with SQL highlighting in the connection's dialect and completion of its
// tables and columns. Colours come from the console's theme variables, so light and dark follow the theme.

const theme = EditorView.theme({
  '&': {
    fontSize: '13px',
    backgroundColor: 'var(--card)',
    color: 'var(--foreground)',
    border: '1px solid var(--input)',
    borderRadius: 'calc(var(--radius) - 2px)',
  },
  '&.cm-focused': { outline: '2px solid color-mix(in oklch, var(--ring) 30%, transparent)' },
  '.cm-content': { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace', caretColor: 'var(--foreground)' },
  '.cm-gutters': { backgroundColor: 'var(--muted)', color: 'var(--muted-foreground)', border: 'none' },
  '.cm-activeLine, .cm-activeLineGutter': { backgroundColor: 'color-mix(in oklch, var(--accent) 60%, transparent)' },
  '.cm-selectionBackground, &.cm-focused .cm-selectionBackground': {
    backgroundColor: 'color-mix(in oklch, var(--primary) 25%, transparent) !important',
  },
  '.cm-tooltip': {
    backgroundColor: 'var(--popover)',
    color: 'var(--popover-foreground)',
    border: '1px solid var(--border)',
  },
  '.cm-tooltip-autocomplete > ul > li[aria-selected]': {
    backgroundColor: 'var(--accent)',
    color: 'var(--accent-foreground)',
  },
  '.cm-placeholder': { color: 'var(--muted-foreground)' },
});

const highlight = HighlightStyle.define([
  { tag: tags.keyword, color: 'var(--primary)', fontWeight: '600' },
  { tag: [tags.string, tags.special(tags.string)], color: 'var(--warning)' },
  { tag: [tags.number, tags.bool, tags.null], color: 'oklch(0.62 0.17 250)' },
  { tag: tags.comment, color: 'var(--muted-foreground)', fontStyle: 'italic' },
  { tag: [tags.typeName, tags.standard(tags.name)], color: 'oklch(0.6 0.15 300)' },
]);

/** SqlEditor edits SQL; `tables` feed the completion, `dialect` the highlighting. */
export function SqlEditor({
  value,
  onChange,
  dialect,
  tables,
  onRun,
  label,
}: {
  value: string;
  onChange: (value: string) => void;
  dialect: 'postgres' | 'mysql';
  tables: Array<{ name: string; columns: string[] }>;
  /** onRun is Ctrl/Cmd+Enter. */
  onRun?: () => void;
  label: string;
}) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const language = useRef(new Compartment());
  const latest = useRef({ onChange, onRun });
  latest.current = { onChange, onRun };

  // The editor is made once; value, dialect and tables reach it through the effects below.
  // biome-ignore lint/correctness/useExhaustiveDependencies: see above.
  useEffect(() => {
    if (!host.current) return;
    const editor = new EditorView({
      parent: host.current,
      state: EditorState.create({
        doc: value,
        extensions: [
          basicSetup,
          language.current.of(sql({ dialect: PostgreSQL })),
          syntaxHighlighting(highlight),
          theme,
          placeholder('SELECT * FROM …'),
          EditorView.lineWrapping,
          EditorView.contentAttributes.of({ 'aria-label': label }),
          keymap.of([
            {
              key: 'Mod-Enter',
              run: () => {
                latest.current.onRun?.();
                return true;
              },
            },
          ]),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) latest.current.onChange(update.state.doc.toString());
          }),
        ],
      }),
    });
    view.current = editor;
    return () => editor.destroy();
  }, []);

  useEffect(() => {
    const schema = Object.fromEntries(tables.map((t) => [t.name, t.columns]));
    view.current?.dispatch({
      effects: language.current.reconfigure(sql({ dialect: dialect === 'mysql' ? MySQL : PostgreSQL, schema })),
    });
  }, [dialect, tables]);

  useEffect(() => {
    const editor = view.current;
    if (editor && editor.state.doc.toString() !== value) {
      editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: value } });
    }
  }, [value]);

  return <div ref={host} className="min-h-48 [&_.cm-editor]:min-h-48 [&_.cm-scroller]:max-h-96" />;
}

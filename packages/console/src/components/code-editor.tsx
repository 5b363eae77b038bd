import { HighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { Compartment, EditorState, type Extension } from '@codemirror/state';
import { EditorView, keymap, placeholder as placeholderText } from '@codemirror/view';
import { tags } from '@lezer/highlight';
import { basicSetup } from 'codemirror';
import { useEffect, useRef } from 'react';
import { cn } from '@/lib/cn';

// The console's one code editor: CodeMirror 6 (highlighting, line numbers, brackets, search, undo) in the
// console's colours (its theme variables, so light and dark follow the theme without a second theme), for any
// language a caller passes (SQL for Direct SQL, TypeScript for functions). The editor owns its text while mounted:
// `value` seeds it and replaces it when set from outside (a rollback, a reset), `onChange` hears every edit.

const theme = EditorView.theme({
  '&': {
    fontSize: '13px',
    height: '100%',
    backgroundColor: 'var(--card)',
    color: 'var(--foreground)',
  },
  '&.cm-focused': { outline: '2px solid color-mix(in oklch, var(--ring) 30%, transparent)' },
  '.cm-scroller': { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace' },
  '.cm-content': { caretColor: 'var(--foreground)' },
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

/** CodeEditor edits code in `language`; `id` and `ariaLabel` let a label point at it. */
export function CodeEditor({
  value,
  onChange,
  language,
  ariaLabel,
  id,
  invalid,
  placeholder,
  wrap = false,
  onRun,
  className,
}: {
  value: string;
  onChange: (value: string) => void;
  /** The language support (and its completion); a new value reconfigures the open editor. */
  language: Extension;
  ariaLabel: string;
  id?: string;
  invalid?: boolean;
  placeholder?: string;
  /** wrap breaks long lines instead of scrolling sideways. */
  wrap?: boolean;
  /** onRun is Ctrl/Cmd+Enter. */
  onRun?: () => void;
  className?: string;
}) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const languageSlot = useRef(new Compartment());
  const latest = useRef({ onChange, onRun, value, language });
  latest.current = { onChange, onRun, value, language };

  // The editor is made once per label; value and language reach it through the effects below.
  useEffect(() => {
    if (!host.current) return;
    const editor = new EditorView({
      parent: host.current,
      state: EditorState.create({
        doc: latest.current.value,
        extensions: [
          basicSetup,
          languageSlot.current.of(latest.current.language),
          syntaxHighlighting(highlight),
          theme,
          ...(placeholder ? [placeholderText(placeholder)] : []),
          ...(wrap ? [EditorView.lineWrapping] : []),
          EditorView.contentAttributes.of({ 'aria-label': ariaLabel, ...(id ? { id } : {}) }),
          keymap.of([
            {
              key: 'Mod-Enter',
              run: () => {
                latest.current.onRun?.();
                return latest.current.onRun !== undefined;
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
    return () => {
      editor.destroy();
      view.current = null;
    };
  }, [ariaLabel, id, placeholder, wrap]);

  useEffect(() => {
    view.current?.dispatch({ effects: languageSlot.current.reconfigure(language) });
  }, [language]);

  useEffect(() => {
    const editor = view.current;
    if (editor && editor.state.doc.toString() !== value) {
      editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: value } });
    }
  }, [value]);

  return (
    <div
      ref={host}
      data-invalid={invalid || undefined}
      className={cn(
        'min-h-0 overflow-hidden rounded-md border border-input bg-card data-[invalid]:border-destructive',
        className,
      )}
    />
  );
}

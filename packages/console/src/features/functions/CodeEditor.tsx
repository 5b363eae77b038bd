import { javascript } from '@codemirror/lang-javascript';
import { Compartment, EditorState } from '@codemirror/state';
import { oneDark } from '@codemirror/theme-one-dark';
import { EditorView } from '@codemirror/view';
import { basicSetup } from 'codemirror';
import { useEffect, useRef } from 'react';
import { useTheme } from '@/lib/theme-provider';

// A CodeMirror 6 editor for a function's TypeScript: highlighting, line numbers, brackets, search, undo. It owns
// its text while mounted; `value` seeds it, `onChange` hears every edit.

const light = EditorView.theme({ '&': { backgroundColor: 'var(--color-card)' } }, { dark: false });
const sizing = EditorView.theme({
  '&': { fontSize: '13px', height: '100%' },
  '.cm-scroller': { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace' },
});

/** CodeEditor edits TypeScript; `id` and `ariaLabel` let a label point at it. */
export function CodeEditor({
  value,
  onChange,
  id,
  ariaLabel,
  invalid,
  className,
}: {
  value: string;
  onChange: (value: string) => void;
  id?: string;
  ariaLabel: string;
  invalid?: boolean;
  className?: string;
}) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const themeSlot = useRef(new Compartment());
  const changed = useRef(onChange);
  changed.current = onChange;
  const { resolvedTheme } = useTheme();
  const initial = useRef({ value, dark: resolvedTheme === 'dark' });

  useEffect(() => {
    if (!host.current) return;
    const editor = new EditorView({
      parent: host.current,
      state: EditorState.create({
        doc: initial.current.value,
        extensions: [
          basicSetup,
          javascript({ typescript: true }),
          sizing,
          themeSlot.current.of(initial.current.dark ? oneDark : light),
          EditorView.contentAttributes.of({ 'aria-label': ariaLabel, ...(id ? { id } : {}) }),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) changed.current(update.state.doc.toString());
          }),
        ],
      }),
    });
    view.current = editor;
    return () => {
      editor.destroy();
      view.current = null;
    };
  }, [ariaLabel, id]);

  useEffect(() => {
    view.current?.dispatch({ effects: themeSlot.current.reconfigure(resolvedTheme === 'dark' ? oneDark : light) });
  }, [resolvedTheme]);

  // A value set from outside (a rollback, a reset) replaces the text; the editor's own edits are already there.
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
      className={[
        'min-h-0 overflow-hidden rounded-md border border-input bg-card data-[invalid]:border-destructive',
        className ?? '',
      ].join(' ')}
    />
  );
}

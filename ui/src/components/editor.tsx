import { useEffect, useRef } from "preact/hooks";
import { basicSetup, EditorView } from "codemirror";
import { keymap } from "@codemirror/view";
import { javascript, javascriptLanguage } from "@codemirror/lang-javascript";
import { mcpCompletions, type TypedServer } from "../completions.js";

/** CodeMirror 6 (bundled, no CDN), JavaScript mode, completing the enabled servers' tools; Ctrl/Cmd-Enter runs. */
export function CodeEditor({ initial, onChange, onRun, servers, label }: { initial: string; onChange: (code: string) => void; onRun: () => void; servers: () => readonly TypedServer[]; label: string }) {
  const host = useRef<HTMLDivElement>(null);
  const callbacks = useRef({ onChange, onRun });
  callbacks.current = { onChange, onRun };
  useEffect(() => {
    if (host.current === null) return;
    const view = new EditorView({
      doc: initial,
      parent: host.current,
      extensions: [
        keymap.of([{ key: "Mod-Enter", run: () => (callbacks.current.onRun(), true) }]),
        basicSetup,
        javascript(),
        javascriptLanguage.data.of({ autocomplete: mcpCompletions(servers) }),
        EditorView.updateListener.of((update) => {
          if (update.docChanged) callbacks.current.onChange(update.state.doc.toString());
        }),
        EditorView.contentAttributes.of({ "aria-label": label }),
      ],
    });
    return () => view.destroy();
  }, []);
  return <div class="editor" ref={host} />;
}

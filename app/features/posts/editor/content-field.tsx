import { lazy, Suspense, useId } from "react";

import { importOrReloadOnce } from "~/lib/chunk-reload";

import { EditorPlaceholder } from "./editor-placeholder";
import { useHydrated } from "./hydrated";
import { labelClass, secondaryClass } from "./styles";

// A page from before a deploy may ask for an editor chunk that is gone: reload once for the new
// one, and if that fails too, say so in the editor's place (app/lib/chunk-reload.ts).
const RichTextEditor = lazy(() =>
  importOrReloadOnce(
    "editor",
    () => import("./rich-text-editor"),
    () => ({ default: EditorUnavailable }),
  ),
);

/** The post's text: the rich text editor, loaded lazily, with its shortcuts under it. */
export function ContentField({
  initialHtml,
  onChange,
}: {
  initialHtml: string;
  onChange: (html: string, isEmpty: boolean) => void;
}) {
  const labelId = useId();
  return (
    <div>
      <span id={labelId} className={labelClass}>
        Content *
      </span>
      <div className="mt-1">
        <Suspense fallback={<EditorLoading />}>
          <RichTextEditor initialHtml={initialHtml} labelId={labelId} onChange={onChange} />
        </Suspense>
      </div>
      <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">
        Shortcuts: <kbd>Ctrl+B</kbd> bold, <kbd>Ctrl+I</kbd> italic, <kbd>Ctrl+E</kbd> inline code,{" "}
        <kbd>Ctrl+K</kbd> link, <kbd>Ctrl+Z</kbd> undo, <kbd>Ctrl+Y</kbd> redo. Paste or drop
        images; pasted Markdown is formatted.
      </p>
    </div>
  );
}

/** In the editor's place when its code cannot load, even after a reload. */
function EditorUnavailable() {
  // While hydrating, the box the server rendered for the editor, so nothing mismatches.
  const hydrated = useHydrated();
  if (!hydrated) return <EditorPlaceholder />;
  return (
    <div
      role="alert"
      className="min-h-[453px] rounded-lg border border-red-300 bg-red-50 p-4 text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100"
    >
      <p>The editor could not load. Please check your connection, then reload the page.</p>
      <button
        type="button"
        className={`${secondaryClass} mt-4`}
        onClick={() => window.location.reload()}
      >
        Reload page
      </button>
    </div>
  );
}

function EditorLoading() {
  return (
    <div className="min-h-[453px] rounded-lg border border-slate-300 bg-white p-4 text-slate-600 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-400">
      Loading editor...
    </div>
  );
}

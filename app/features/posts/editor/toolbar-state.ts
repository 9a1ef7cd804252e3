import { EditorState } from "@tiptap/pm/state";
import { isActive, type Editor, type EditorStateSnapshot } from "@tiptap/react";

import { withoutTrailingParagraph } from "./trailing-paragraph";

/**
 * What the toolbar shows: which formats are active and whether undo/redo can run. Formats are
 * judged on the selection the toolbar's commands act on, which leaves out the trailing empty
 * paragraph (./trailing-paragraph.ts): after Ctrl+A and "Heading 1", the heading is pressed.
 */
export function selectToolbarState({ editor }: EditorStateSnapshot<Editor>) {
  const { state } = editor;
  const selection = withoutTrailingParagraph(state.doc, state.selection);
  const judged =
    selection === state.selection
      ? state
      : EditorState.create({ doc: state.doc, selection, storedMarks: state.storedMarks });
  return {
    bold: isActive(judged, "bold"),
    italic: isActive(judged, "italic"),
    strike: isActive(judged, "strike"),
    heading1: isActive(judged, "heading", { level: 1 }),
    heading2: isActive(judged, "heading", { level: 2 }),
    heading3: isActive(judged, "heading", { level: 3 }),
    bulletList: isActive(judged, "bulletList"),
    orderedList: isActive(judged, "orderedList"),
    blockquote: isActive(judged, "blockquote"),
    codeBlock: isActive(judged, "codeBlock"),
    callout: isActive(judged, "callout"),
    code: isActive(judged, "code"),
    link: isActive(judged, "link"),
    table: isActive(state, "table"),
    headerCell: isActive(state, "tableHeader"),
    image: isActive(state, "image"),
    codeLanguage: isActive(judged, "codeBlock")
      ? ((editor.getAttributes("codeBlock").language as string | null) ?? null)
      : null,
    canUndo: editor.can().chain().undo().run(),
    canRedo: editor.can().chain().redo().run(),
  };
}

export type ToolbarState = ReturnType<typeof selectToolbarState>;

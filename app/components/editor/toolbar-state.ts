import type { Editor, EditorStateSnapshot } from "@tiptap/react";

/** What the toolbar shows: which formats are active and whether undo/redo can run. */
export function selectToolbarState({ editor }: EditorStateSnapshot<Editor>) {
  return {
    bold: editor.isActive("bold"),
    italic: editor.isActive("italic"),
    strike: editor.isActive("strike"),
    heading1: editor.isActive("heading", { level: 1 }),
    heading2: editor.isActive("heading", { level: 2 }),
    heading3: editor.isActive("heading", { level: 3 }),
    bulletList: editor.isActive("bulletList"),
    orderedList: editor.isActive("orderedList"),
    blockquote: editor.isActive("blockquote"),
    codeBlock: editor.isActive("codeBlock"),
    canUndo: editor.can().chain().undo().run(),
    canRedo: editor.can().chain().redo().run(),
  };
}

export type ToolbarState = ReturnType<typeof selectToolbarState>;

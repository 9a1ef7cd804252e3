/** What the editor's dialogs and uploads do to its document. */
import { NodeSelection } from "@tiptap/pm/state";
import type { Editor } from "@tiptap/react";

import type { PostImage } from "~/features/media";

import { IMAGE_UPLOAD_TEXT, uploadImage } from "./image-upload";

export type Notice = { kind: "status" | "alert"; text: string } | null;

/** Where the selected image starts, or null when the selection is not an image. */
export function selectedImage(editor: Editor): number | null {
  const { selection } = editor.state;
  return selection instanceof NodeSelection && selection.node.type.name === "image"
    ? selection.from
    : null;
}

/** Where the image with `src` that ends at or before `from` starts, or null. */
function findImageBefore(editor: Editor, from: number, src: string): number | null {
  let found: number | null = null;
  editor.state.doc.descendants((node, pos) => {
    if (pos < from && node.type.name === "image" && node.attrs.src === src) found = pos;
  });
  return found;
}

/** Inserts an uploaded image at `position` (or the caret); where it starts, or null. */
function insertImage(editor: Editor, image: PostImage, position: number | undefined) {
  const { src, srcset, width, height } = image;
  const attrs = { src, srcset, width, height, alt: "" };
  const chain = editor.chain().focus();
  if (position === undefined) chain.insertContent({ type: "image", attrs });
  else chain.insertContentAt(position, { type: "image", attrs });
  chain.run();
  // The image just inserted is the selected node (or ends just before the caret).
  return selectedImage(editor) ?? findImageBefore(editor, editor.state.selection.from, src);
}

/**
 * Uploads files one by one, each inserted as it arrives (the first at `at`, when dropped there)
 * and handed to `inserted` to ask for its alt text. The first refusal stops the rest and is said.
 */
export async function insertUploads(
  editor: Editor,
  files: File[],
  at: number | undefined,
  { notice, inserted }: { notice: (notice: Notice) => void; inserted: (at: number) => void },
) {
  notice({ kind: "status", text: IMAGE_UPLOAD_TEXT.uploading });
  let position = at;
  for (const file of files) {
    const result = await uploadImage(file);
    if (!result.ok) {
      notice({ kind: "alert", text: result.error });
      return;
    }
    const imagePos = insertImage(editor, result.image, position);
    position = undefined;
    if (imagePos !== null) inserted(imagePos);
  }
  notice(null);
}

/** The image at `at` gets `alt`, unless the document no longer has an image there. */
export function setImageAlt(editor: Editor, at: number, alt: string) {
  if (editor.state.doc.nodeAt(at)?.type.name !== "image") return;
  editor.chain().focus().setNodeSelection(at).updateAttributes("image", { alt }).run();
}

/** Links the selection (or changes the link at the caret); with neither, inserts the address. */
export function applyLink(editor: Editor, href: string) {
  const chain = editor.chain().focus();
  if (editor.state.selection.empty && !editor.isActive("link")) {
    chain.insertContent({ type: "text", text: href, marks: [{ type: "link", attrs: { href } }] });
  } else {
    chain.extendMarkRange("link").setLink({ href });
  }
  chain.run();
}

export function removeLink(editor: Editor) {
  editor.chain().focus().extendMarkRange("link").unsetLink().run();
}

import { useState } from "react";
import { useNavigate } from "react-router";

import { postPath, type PublishState } from "../publishing";
import { EDITOR_TEXT } from "../rules";
import { trashedNoticePath } from "../trash";
import { postRequestOf, type PostDraft } from "./post-draft";

/**
 * Saving and deleting a post through the JSON API with fetch, so a failed save leaves everything
 * typed in place; the texts are the original's alerts. `postId` is the post being edited, none
 * for a new one. `problem` is what stops a save, shown on the page.
 */
export function usePostSave(postId: number | undefined) {
  const navigate = useNavigate();
  const [saving, setSaving] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const editing = postId !== undefined;

  async function save(draft: PostDraft) {
    if (draft.title.trim() === "" || draft.empty) {
      window.alert(EDITOR_TEXT.empty);
      return;
    }
    const request = postRequestOf(draft);
    if ("problem" in request) return setProblem(request.problem);
    setProblem(null);
    setSaving(true);
    try {
      const response = await fetch(editing ? `/api/posts/${postId}` : "/api/posts", {
        method: editing ? "PUT" : "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(request.body),
      });
      if (!response.ok) {
        // The server's reason (a slug another post had, say) stays on screen under the alert.
        const reason = ((await response.json().catch(() => null)) as { error?: unknown } | null)
          ?.error;
        if (typeof reason === "string") setProblem(reason);
        throw new Error(`${response.status}: ${String(reason ?? "")}`);
      }
      const saved = (await response.json()) as { slug: string; status: PublishState };
      setSaving(false);
      window.alert(editing ? EDITOR_TEXT.updated : EDITOR_TEXT.created);
      // Drafts and scheduled posts are in the owner's list, not the blog's.
      if (saved.status !== "published") navigate("/admin/posts");
      else navigate(editing ? postPath(saved.slug) : "/blog");
    } catch (error) {
      console.error(editing ? "Error al actualizar el post." : "Error al guardar el post.", error);
      setSaving(false);
      window.alert(editing ? EDITOR_TEXT.updateFailed : EDITOR_TEXT.createFailed);
    }
  }

  async function remove() {
    if (!editing) return;
    setSaving(true);
    try {
      const response = await fetch(`/api/posts/${postId}`, { method: "DELETE" });
      if (!response.ok) throw new Error(String(response.status));
      // The post is in the trash: the owner's list says so, and offers it back.
      navigate(trashedNoticePath(postId));
    } catch (error) {
      console.error("Error deleting the post.", error);
      setSaving(false);
      window.alert("Error deleting the post. Please try again.");
    }
  }

  return { saving, problem, setProblem, save, remove };
}

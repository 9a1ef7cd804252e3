import { useEffect, useState, useSyncExternalStore } from "react";
import { useNavigate, useRevalidator } from "react-router";

import { postPath, type PublishState } from "../publishing";
import { EDITOR_TEXT } from "../rules";
import { trashedNoticePath } from "../trash";
import { postRequestOf, type EditablePost, type PostDraft } from "./post-draft";
import { PostSaver } from "./post-saver";

/**
 * Saving and deleting a post through the JSON API with fetch, so a failed save leaves everything
 * typed in place; the texts are the original's alerts. Autosave runs underneath (PostSaver):
 * `changed()` after every edit. `problem` is what stops a save, shown on the page.
 */
export function usePostSave({
  post,
  read,
  base,
}: {
  post: EditablePost | undefined;
  read: () => PostDraft;
  /** The revision the opened text was made on, when it is the browser's copy. */
  base?: number | null;
}) {
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  const [saver] = useState(
    () =>
      new PostSaver({
        postId: post?.id ?? null,
        base: base === undefined ? (post?.revision ?? null) : base,
        pending: post?.pending ?? false,
        public: post !== undefined && post.status !== "draft",
        read,
        // The address becomes the new post's edit page, without a reload: the editor stays.
        onCreated: (id) =>
          window.history.replaceState(window.history.state, "", `/blog/${id}/edit`),
      }),
  );
  const snapshot = useSyncExternalStore(saver.subscribe, saver.getSnapshot, saver.getSnapshot);
  const [saving, setSaving] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const editing = post !== undefined;

  useEffect(() => {
    const leaving = () => saver.keepLocally();
    const online = () => saver.reconnected();
    window.addEventListener("pagehide", leaving);
    window.addEventListener("beforeunload", leaving);
    window.addEventListener("online", online);
    return () => {
      window.removeEventListener("pagehide", leaving);
      window.removeEventListener("beforeunload", leaving);
      window.removeEventListener("online", online);
      saver.dispose();
    };
  }, [saver]);

  async function save(draft: PostDraft) {
    if (draft.title.trim() === "" || draft.empty) {
      window.alert(EDITOR_TEXT.empty);
      return;
    }
    const request = postRequestOf(draft);
    if ("problem" in request) return setProblem(request.problem);
    setProblem(null);
    setSaving(true);
    const answer = await saver.saveNow(request.body);
    setSaving(false);
    if (answer.kind === "conflict") return; // The conflict's choices are on screen.
    if (answer.kind !== "ok") {
      // The server's reason (a slug another post had, say) stays on screen under the alert.
      if (answer.kind === "refused") setProblem(answer.reason);
      console.error(editing ? "Error al actualizar el post." : "Error al guardar el post.", answer);
      window.alert(editing ? EDITOR_TEXT.updateFailed : EDITOR_TEXT.createFailed);
      return;
    }
    saver.dispose();
    const saved = answer.body as { slug: string; status: PublishState };
    window.alert(editing ? EDITOR_TEXT.updated : EDITOR_TEXT.created);
    // Drafts and scheduled posts are in the owner's list, not the blog's.
    if (saved.status !== "published") navigate("/admin/posts");
    else navigate(editing ? postPath(saved.slug) : "/blog");
  }

  /** Opens the post again from the server (after Take theirs, or Discard changes). */
  function reopen() {
    if (snapshot.postId !== null && !editing) {
      window.location.assign(`/blog/${snapshot.postId}/edit`);
    } else {
      void revalidator.revalidate();
    }
  }

  async function remove() {
    if (!editing) return;
    setSaving(true);
    saver.dispose();
    try {
      const response = await fetch(`/api/posts/${post.id}`, { method: "DELETE" });
      if (!response.ok) throw new Error(String(response.status));
      // The post is in the trash: the owner's list says so, and offers it back.
      navigate(trashedNoticePath(post.id));
    } catch (error) {
      console.error("Error deleting the post.", error);
      setSaving(false);
      window.alert("Error deleting the post. Please try again.");
    }
  }

  return { saver, snapshot, saving, problem, setProblem, save, remove, reopen };
}

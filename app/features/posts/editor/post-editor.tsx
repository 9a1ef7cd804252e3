import { ArrowLeft } from "lucide-react";
import { lazy, Suspense, useId, useRef, useState, useSyncExternalStore } from "react";
import { Link, useNavigate } from "react-router";

import { importOrReloadOnce } from "~/lib/chunk-reload";
import {
  EDITOR_TEXT,
  imagesWithoutAlt,
  missingAltText,
  POST_LIMITS,
  textOfHtml,
} from "~/features/posts/rules";

import {
  postPath,
  PUBLISH_TEXT,
  readSlug,
  readTags,
  TAG_LIMITS,
  type PublishState,
} from "~/features/posts/publishing";
import { postSlugOf, SLUG_MAX_LENGTH } from "~/features/posts/slug";

import { EditorPlaceholder } from "./editor-placeholder";
import { buttonClass } from "~/ui/button";

// A page from before a deploy may ask for an editor chunk that is gone: reload once for the new
// one, and if that fails too, say so in the editor's place (app/lib/chunk-reload.ts).
const RichTextEditor = lazy(() =>
  importOrReloadOnce(
    "editor",
    () => import("./rich-text-editor"),
    () => ({ default: EditorUnavailable }),
  ),
);

export type EditablePost = {
  id: number;
  title: string;
  description: string;
  content: string;
  slug: string;
  tags: string[];
  status: PublishState;
  /** ISO time it went (or goes) public; null for a draft never published. */
  publishedAt: string | null;
};

/** The publishing choice of the form: a draft, public now (or kept public), or at a time. */
type Visibility = "draft" | "now" | "at";

/** A datetime-local input's value for a moment, in the browser's time zone. */
function localInputValue(iso: string): string {
  const date = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

const field =
  "mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-slate-900 placeholder:text-slate-500 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100";
const label = "block text-sm font-medium text-slate-800 dark:text-slate-200";
const primary = buttonClass();
const secondary =
  "inline-flex items-center gap-2 rounded-lg border border-slate-300 px-4 py-2 font-medium text-slate-800 hover:bg-slate-100 dark:border-slate-700 dark:text-slate-100 dark:hover:bg-slate-800";

/**
 * The new-post and edit screens (docs/product.md#editor). Saves go to the JSON API with fetch, so a failed
 * save leaves everything typed in place; the texts are the original's alerts.
 */
export function PostEditor({ post }: { post?: EditablePost }) {
  const navigate = useNavigate();
  const contentLabelId = useId();
  const [title, setTitle] = useState(post?.title ?? "");
  const [description, setDescription] = useState(post?.description ?? "");
  const [html, setHtml] = useState(post?.content ?? "");
  const [empty, setEmpty] = useState(textOfHtml(post?.content ?? "") === "");
  const [slug, setSlug] = useState(post?.slug ?? "");
  const [tagText, setTagText] = useState(post?.tags.join(", ") ?? "");
  const [visibility, setVisibility] = useState<Visibility>(
    post?.status === "draft" ? "draft" : post?.status === "scheduled" ? "at" : "now",
  );
  // Shown in the owner's time zone, which only the browser knows: filled in once hydrated.
  const hydrated = useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
  const timeZone = hydrated ? Intl.DateTimeFormat().resolvedOptions().timeZone : null;
  const [typedPublishAt, setPublishAt] = useState<string | null>(null);
  const publishAt =
    typedPublishAt ??
    (hydrated && post?.status === "scheduled" && post.publishedAt
      ? localInputValue(post.publishedAt)
      : "");
  const [saving, setSaving] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const dialog = useRef<HTMLDialogElement>(null);

  const editing = post !== undefined;
  const wasPublished = post?.status === "published";
  const readTagsNow = readTags(tagText);
  const shownTags = "tags" in readTagsNow ? readTagsNow.tags : [];

  async function save() {
    if (title.trim() === "" || empty) {
      window.alert(EDITOR_TEXT.empty);
      return;
    }
    // Every image needs alt text; the server refuses the post too, this says which problem.
    const withoutAlt = imagesWithoutAlt(html);
    if (withoutAlt > 0) {
      setProblem(missingAltText(withoutAlt));
      return;
    }
    // The same rules the server applies, said before anything is sent.
    const slugRead = readSlug(slug);
    if ("error" in slugRead) return setProblem(slugRead.error);
    if ("error" in readTagsNow) return setProblem(readTagsNow.error);
    const at = visibility === "at" ? new Date(publishAt) : null;
    if (at && Number.isNaN(at.getTime())) return setProblem(PUBLISH_TEXT.badTime);
    setProblem(null);
    setSaving(true);
    try {
      const response = await fetch(editing ? `/api/posts/${post.id}` : "/api/posts", {
        method: editing ? "PUT" : "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({
          title,
          description,
          content: html,
          slug,
          tags: readTagsNow.tags,
          publish: at ? { mode: "at", at: at.toISOString() } : { mode: visibility },
        }),
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
    dialog.current?.close();
    setSaving(true);
    try {
      const response = await fetch(`/api/posts/${post.id}`, { method: "DELETE" });
      if (!response.ok) throw new Error(String(response.status));
      navigate("/blog");
    } catch (error) {
      console.error("Error deleting the post.", error);
      setSaving(false);
      window.alert("Error deleting the post. Please try again.");
    }
  }

  return (
    <div className="mx-auto max-w-4xl py-10">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <Link to="/blog" className={secondary}>
          <ArrowLeft aria-hidden="true" className="size-4" />
          Back to Blog
        </Link>
        <div className="flex flex-wrap gap-3">
          {editing ? (
            <>
              <button
                type="button"
                className={secondary}
                onClick={() => dialog.current?.showModal()}
                disabled={saving}
              >
                Delete post
              </button>
              <Link to={postPath(post.slug)} className={secondary}>
                Cancel
              </Link>
            </>
          ) : null}
          <button type="button" className={primary} onClick={save} disabled={saving}>
            {saving ? "Saving..." : editing ? "Update Post" : "Save Post"}
          </button>
        </div>
      </div>

      {problem ? (
        <p
          role="alert"
          className="mt-4 rounded-lg border border-red-300 bg-red-50 px-4 py-3 text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100"
        >
          {problem}
        </p>
      ) : null}
      <h1 className="mt-8 text-3xl font-bold text-slate-900 dark:text-white">
        {editing ? "Edit post" : "New post"}
      </h1>

      <div className="mt-6 space-y-6">
        <div>
          <label htmlFor="post-title" className={label}>
            Title *
          </label>
          <input
            id="post-title"
            value={title}
            onChange={(e) => setTitle(e.target.value)}
            placeholder="Enter post title..."
            maxLength={POST_LIMITS.title}
            className={field}
          />
        </div>
        <div>
          <label htmlFor="post-slug" className={label}>
            {PUBLISH_TEXT.slug}
          </label>
          <div className="mt-1 flex items-center gap-1">
            <span aria-hidden="true" className="text-slate-600 dark:text-slate-400">
              /blog/
            </span>
            <input
              id="post-slug"
              value={slug}
              onChange={(e) => setSlug(e.target.value)}
              placeholder={postSlugOf(title)}
              maxLength={SLUG_MAX_LENGTH * 2}
              aria-describedby="post-slug-hint"
              className={`${field} mt-0`}
            />
          </div>
          <p id="post-slug-hint" className="mt-1 text-sm text-slate-600 dark:text-slate-400">
            {editing
              ? "Changing it keeps the old address working: it redirects here."
              : "Leave it empty to make it from the title."}
          </p>
        </div>
        <div>
          <label htmlFor="post-description" className={label}>
            Description
          </label>
          <textarea
            id="post-description"
            rows={2}
            value={description}
            onChange={(e) => setDescription(e.target.value)}
            placeholder="Brief description of your post..."
            maxLength={POST_LIMITS.description}
            className={field}
          />
        </div>
        <div>
          <label htmlFor="post-tags" className={label}>
            {PUBLISH_TEXT.tags}
          </label>
          <input
            id="post-tags"
            value={tagText}
            onChange={(e) => setTagText(e.target.value)}
            placeholder="postgres, node, testing"
            aria-describedby="post-tags-hint"
            className={field}
          />
          <p id="post-tags-hint" className="mt-1 text-sm text-slate-600 dark:text-slate-400">
            Separated by commas, up to {TAG_LIMITS.perPost}.
            {shownTags.length > 0 ? ` Saved as: ${shownTags.map((t) => `#${t}`).join(" ")}` : ""}
          </p>
        </div>
        <fieldset>
          <legend className={label}>Publishing</legend>
          <div className="mt-2 flex flex-col gap-2 sm:flex-row sm:flex-wrap sm:items-center sm:gap-6">
            <label className="inline-flex items-center gap-2">
              <input
                type="radio"
                name="visibility"
                value="draft"
                checked={visibility === "draft"}
                onChange={() => setVisibility("draft")}
              />
              {wasPublished ? PUBLISH_TEXT.unpublish : PUBLISH_TEXT.draft}
            </label>
            <label className="inline-flex items-center gap-2">
              <input
                type="radio"
                name="visibility"
                value="now"
                checked={visibility === "now"}
                onChange={() => setVisibility("now")}
              />
              {wasPublished ? PUBLISH_TEXT.published : PUBLISH_TEXT.publish}
            </label>
            <label className="inline-flex items-center gap-2">
              <input
                type="radio"
                name="visibility"
                value="at"
                checked={visibility === "at"}
                onChange={() => setVisibility("at")}
              />
              {PUBLISH_TEXT.publishAt}
            </label>
            <input
              type="datetime-local"
              aria-label={PUBLISH_TEXT.publishAt}
              aria-describedby="publish-at-hint"
              value={publishAt}
              disabled={visibility !== "at"}
              onChange={(e) => setPublishAt(e.target.value)}
              className={`${field} mt-0 w-auto disabled:opacity-60`}
            />
          </div>
          <p id="publish-at-hint" className="mt-1 text-sm text-slate-600 dark:text-slate-400">
            {visibility === "draft"
              ? "Only you can see a draft."
              : visibility === "at"
                ? `It goes public by itself at that time${timeZone ? ` (your time zone, ${timeZone})` : ""}.`
                : wasPublished
                  ? "It stays public, with its date."
                  : "It goes public when you save."}
          </p>
        </fieldset>
        <div>
          <span id={contentLabelId} className={label}>
            Content *
          </span>
          <div className="mt-1">
            <Suspense fallback={<EditorLoading />}>
              <RichTextEditor
                initialHtml={post?.content ?? ""}
                labelId={contentLabelId}
                onChange={(next, isEmpty) => {
                  setHtml(next);
                  if (problem && imagesWithoutAlt(next) === 0) setProblem(null);
                  setEmpty(isEmpty);
                }}
              />
            </Suspense>
          </div>
          <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">
            Shortcuts: <kbd>Ctrl+B</kbd> bold, <kbd>Ctrl+I</kbd> italic, <kbd>Ctrl+E</kbd> inline
            code, <kbd>Ctrl+K</kbd> link, <kbd>Ctrl+Z</kbd> undo, <kbd>Ctrl+Y</kbd> redo. Paste or
            drop images; pasted Markdown is formatted.
          </p>
        </div>
        <section aria-labelledby="preview-heading">
          <h2 id="preview-heading" className="text-lg font-semibold text-slate-900 dark:text-white">
            Content Preview
          </h2>
          <div
            data-testid="content-preview"
            className="mt-2 min-h-[200px] rounded-lg border border-dashed border-slate-300 p-4 dark:border-slate-700"
          >
            {empty ? (
              <p className="text-slate-600 dark:text-slate-400">
                Start writing to see the preview...
              </p>
            ) : (
              // The editor's own HTML: it can only hold the formats above (and is sanitized on save).
              <div
                className="prose prose-slate max-w-none dark:prose-invert"
                dangerouslySetInnerHTML={{ __html: html }}
              />
            )}
          </div>
        </section>
      </div>

      {editing ? (
        <dialog
          ref={dialog}
          aria-labelledby="delete-heading"
          className="m-auto max-w-sm rounded-xl border border-slate-300 bg-white p-6 text-slate-900 backdrop:bg-black/50 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100"
        >
          <h2 id="delete-heading" className="text-lg font-semibold">
            Delete this post?
          </h2>
          <p className="mt-2 text-slate-700 dark:text-slate-300">
            “{post.title}” will be gone for good.
          </p>
          <div className="mt-6 flex justify-end gap-3">
            <button type="button" className={secondary} onClick={() => dialog.current?.close()}>
              Keep it
            </button>
            <button
              type="button"
              onClick={remove}
              className="rounded-lg bg-red-700 px-4 py-2 font-medium text-white hover:bg-red-800"
            >
              Delete
            </button>
          </div>
        </dialog>
      ) : null}
    </div>
  );
}

const noSubscription = () => () => {};

/** In the editor's place when its code cannot load, even after a reload. */
function EditorUnavailable() {
  // While hydrating, the box the server rendered for the editor, so nothing mismatches.
  const hydrated = useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
  if (!hydrated) return <EditorPlaceholder />;
  return (
    <div
      role="alert"
      className="min-h-[453px] rounded-lg border border-red-300 bg-red-50 p-4 text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100"
    >
      <p>The editor could not load. Please check your connection, then reload the page.</p>
      <button
        type="button"
        className={`${secondary} mt-4`}
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

import { ArrowLeft } from "lucide-react";
import { useRef, useState } from "react";
import { Link } from "react-router";

import { postPath } from "../publishing";
import { imagesWithoutAlt } from "../rules";
import { ContentField } from "./content-field";
import { DeletePostDialog } from "./delete-post-dialog";
import { draftOfRestored, HistoryPanel } from "./history-panel";
import { type EditablePost, usePostDraft } from "./post-draft";
import { PostFields } from "./post-fields";
import { PublishingFields } from "./publishing-fields";
import { primaryClass, secondaryClass } from "./styles";
import { usePostSave } from "./use-post-save";

export type { EditablePost };

/**
 * The new-post and edit screens (docs/product.md#editor): the post's fields, its publishing,
 * its text with a preview, and the actions. Saving is usePostSave's.
 */
export function PostEditor({ post }: { post?: EditablePost }) {
  const { draft, update, timeZone } = usePostDraft(post);
  const { saving, problem, setProblem, save, remove } = usePostSave(post?.id);
  const dialog = useRef<HTMLDialogElement>(null);
  const editing = post !== undefined;
  // The revision the editor holds, and the text its editor was last loaded with (a restore
  // loads another: the editor is made anew with it).
  const [head, setHead] = useState(post?.revision ?? null);
  const [loaded, setLoaded] = useState({ html: post?.content ?? "", times: 0 });

  return (
    <div className="mx-auto max-w-4xl py-10">
      <EditorActions
        post={post}
        saving={saving}
        onSave={() => save(draft)}
        onDelete={() => dialog.current?.showModal()}
      />

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
        {editing ? (
          <HistoryPanel
            postId={post.id}
            headRevision={head}
            onRestored={(restored) => {
              setHead(restored.revision);
              update(draftOfRestored(restored));
              setLoaded((now) => ({ html: restored.fields.content, times: now.times + 1 }));
            }}
          />
        ) : null}
        <PostFields draft={draft} editing={editing} update={update} />
        <PublishingFields
          visibility={draft.visibility}
          publishAt={draft.publishAt}
          wasPublished={post?.status === "published"}
          timeZone={timeZone}
          onVisibility={(visibility) => update({ visibility })}
          onPublishAt={(publishAt) => update({ publishAt })}
        />
        <ContentField
          key={loaded.times}
          initialHtml={loaded.html}
          onChange={(html, empty) => {
            update({ html, empty });
            if (problem && imagesWithoutAlt(html) === 0) setProblem(null);
          }}
        />
        <ContentPreview html={draft.html} empty={draft.empty} />
      </div>

      {editing ? (
        <DeletePostDialog
          dialog={dialog}
          title={post.title}
          onDelete={() => {
            dialog.current?.close();
            void remove();
          }}
        />
      ) : null}
    </div>
  );
}

/** Back to the blog, and the post's actions: delete and cancel when editing, save. */
function EditorActions({
  post,
  saving,
  onSave,
  onDelete,
}: {
  post: EditablePost | undefined;
  saving: boolean;
  onSave: () => void;
  onDelete: () => void;
}) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-3">
      <Link to="/blog" className={secondaryClass}>
        <ArrowLeft aria-hidden="true" className="size-4" />
        Back to Blog
      </Link>
      <div className="flex flex-wrap gap-3">
        {post ? (
          <>
            <button type="button" className={secondaryClass} onClick={onDelete} disabled={saving}>
              Delete post
            </button>
            <Link to={postPath(post.slug)} className={secondaryClass}>
              Cancel
            </Link>
          </>
        ) : null}
        <button type="button" className={primaryClass} onClick={onSave} disabled={saving}>
          {saving ? "Saving..." : post ? "Update Post" : "Save Post"}
        </button>
      </div>
    </div>
  );
}

function ContentPreview({ html, empty }: { html: string; empty: boolean }) {
  return (
    <section aria-labelledby="preview-heading">
      <h2 id="preview-heading" className="text-lg font-semibold text-slate-900 dark:text-white">
        Content Preview
      </h2>
      <div
        data-testid="content-preview"
        className="mt-2 min-h-[200px] rounded-lg border border-dashed border-slate-300 p-4 dark:border-slate-700"
      >
        {empty ? (
          <p className="text-slate-600 dark:text-slate-400">Start writing to see the preview...</p>
        ) : (
          // The editor's own HTML: it can only hold the formats above (and is sanitized on save).
          <div
            className="prose prose-slate max-w-none dark:prose-invert"
            dangerouslySetInnerHTML={{ __html: html }}
          />
        )}
      </div>
    </section>
  );
}

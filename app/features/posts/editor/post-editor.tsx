import { ArrowLeft } from "lucide-react";
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import { Link } from "react-router";

import { postPath } from "../publishing";
import { imagesWithoutAlt } from "../rules";
import { ContentField } from "./content-field";
import { DeletePostDialog } from "./delete-post-dialog";
import { ConflictPanel } from "./conflict-panel";
import { draftOfRestored, HistoryPanel } from "./history-panel";
import { dropLocalCopy, readLocalCopy, sameDraft, type LocalCopy } from "./local-copy";
import { openedDraftOf, usePostDraft, type EditablePost, type PostDraft } from "./post-draft";
import { RestoreOffer } from "./restore-offer";
import { useHydrated } from "./hydrated";
import { SaveStatus, UnpublishedNotice } from "./save-status";
import { PostFields } from "./post-fields";
import { PublishingFields } from "./publishing-fields";
import { primaryClass, secondaryClass } from "./styles";
import { usePostSave } from "./use-post-save";

export type { EditablePost };

/**
 * The new-post and edit screens (docs/product.md#editor): the post's fields, its publishing,
 * its text with a preview, and the actions. Saving, autosave included, is usePostSave's. When
 * the browser holds changes the server never got, they are offered first; restoring opens the
 * editor again on them.
 */
export function PostEditor({ post }: { post?: EditablePost }) {
  const [opening, setOpening] = useState<{ key: number; copy?: LocalCopy }>({ key: 0 });
  const [answered, setAnswered] = useState(false);
  const opened = useMemo(() => openedDraftOf(post), [post]);
  // The browser's copy is read once hydrated (the server has none to render).
  const hydrated = useHydrated();
  const copy = useMemo(
    () => (hydrated ? readLocalCopy(post?.id ?? null) : null),
    [hydrated, post?.id],
  );
  const offer = !answered && copy && !sameDraft(copy.draft, opened) ? copy : null;
  return (
    <div className="mx-auto max-w-4xl py-10">
      {offer ? (
        <RestoreOffer
          copy={offer}
          opened={opened}
          onRestore={() => {
            setOpening((now) => ({ key: now.key + 1, copy: offer }));
            setAnswered(true);
          }}
          onDismiss={() => {
            dropLocalCopy(post?.id ?? null);
            setAnswered(true);
          }}
        />
      ) : null}
      <EditorBody key={opening.key} post={post} copy={opening.copy} />
    </div>
  );
}

function EditorBody({ post, copy }: { post?: EditablePost; copy?: LocalCopy }) {
  const { draft, update, timeZone } = usePostDraft(post, copy?.draft);
  const latest = useRef(draft);
  useLayoutEffect(() => {
    latest.current = draft;
  }, [draft]);
  const { saver, snapshot, saving, problem, setProblem, save, remove, reopen } = usePostSave({
    post,
    read: () => latest.current,
    base: copy ? copy.base : undefined,
  });
  // A restored copy is sent at once: it is what the server never got.
  useEffect(() => {
    if (copy) saver.changed();
  }, [copy, saver]);
  const edit = (changes: Partial<PostDraft>) => {
    update(changes);
    saver.changed();
  };
  const dialog = useRef<HTMLDialogElement>(null);
  const editing = post !== undefined;
  const { state } = snapshot;
  // A restore loads other text: the editor is made anew with it.
  const [loads, setLoads] = useState(0);

  return (
    <>
      <EditorActions
        post={post}
        saving={saving}
        onSave={() => save(draft)}
        onDelete={() => dialog.current?.showModal()}
      />
      <SaveStatus state={state} />
      {snapshot.pending ? (
        <UnpublishedNotice
          busy={saving}
          onDiscard={() => void saver.discard().then((done) => done && reopen())}
        />
      ) : null}
      {state.kind === "conflict" && snapshot.postId !== null ? (
        <ConflictPanel
          postId={snapshot.postId}
          conflict={state.conflict}
          mine={state.mine}
          onKeepMine={() => {
            if (saver.keepMine() === "manual") void save(latest.current);
          }}
          onTakeTheirs={() => {
            saver.takeTheirs();
            reopen();
          }}
        />
      ) : null}

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
        {snapshot.postId !== null ? (
          <HistoryPanel
            postId={snapshot.postId}
            headRevision={snapshot.revision}
            onRestored={(restored) => {
              update(draftOfRestored(restored));
              saver.restored(restored.revision, restored.applied);
              setLoads((n) => n + 1);
            }}
          />
        ) : null}
        <PostFields draft={draft} editing={editing} update={edit} />
        <PublishingFields
          visibility={draft.visibility}
          publishAt={draft.publishAt}
          wasPublished={post?.status === "published"}
          timeZone={timeZone}
          onVisibility={(visibility) => edit({ visibility })}
          onPublishAt={(publishAt) => edit({ publishAt })}
          sendToSubscribers={post?.wasEverPublished ? null : draft.sendToSubscribers}
          onSendToSubscribers={(sendToSubscribers) => edit({ sendToSubscribers })}
        />
        <ContentField
          key={loads}
          initialHtml={draft.html}
          onChange={(html, empty) => {
            edit({ html, empty });
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
    </>
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

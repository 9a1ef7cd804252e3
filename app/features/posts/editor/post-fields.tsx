import type { ReactNode } from "react";

import { POST_LINK_LIMITS, POST_LINK_TEXT } from "../post-links";
import { PUBLISH_TEXT, readTags, TAG_LIMITS } from "../publishing";
import { POST_LIMITS } from "../rules";
import { postSlugOf, SLUG_MAX_LENGTH } from "../slug";
import type { PostDraft } from "./post-draft";
import { fieldClass, hintClass, labelClass } from "./styles";

function Field({ id, label, children }: { id: string; label: string; children: ReactNode }) {
  return (
    <div>
      <label htmlFor={id} className={labelClass}>
        {label}
      </label>
      {children}
    </div>
  );
}

/** The post's title, URL, description and tags. */
export function PostFields({
  draft,
  editing,
  update,
}: {
  draft: PostDraft;
  editing: boolean;
  update: (changes: Partial<PostDraft>) => void;
}) {
  const readTagsNow = readTags(draft.tagText);
  const shownTags = "tags" in readTagsNow ? readTagsNow.tags : [];
  return (
    <>
      <Field id="post-title" label="Title *">
        <input
          id="post-title"
          value={draft.title}
          onChange={(e) => update({ title: e.target.value })}
          placeholder="Enter post title..."
          maxLength={POST_LIMITS.title}
          className={fieldClass}
        />
      </Field>
      <Field id="post-slug" label={PUBLISH_TEXT.slug}>
        <div className="mt-1 flex items-center gap-1">
          <span aria-hidden="true" className="text-slate-600 dark:text-slate-400">
            /blog/
          </span>
          <input
            id="post-slug"
            value={draft.slug}
            onChange={(e) => update({ slug: e.target.value })}
            placeholder={postSlugOf(draft.title)}
            maxLength={SLUG_MAX_LENGTH * 2}
            aria-describedby="post-slug-hint"
            className={`${fieldClass} mt-0`}
          />
        </div>
        <p id="post-slug-hint" className={hintClass}>
          {editing
            ? "Changing it keeps the old address working: it redirects here."
            : "Leave it empty to make it from the title."}
        </p>
      </Field>
      <Field id="post-description" label="Description">
        <textarea
          id="post-description"
          rows={2}
          value={draft.description}
          onChange={(e) => update({ description: e.target.value })}
          placeholder="Brief description of your post..."
          maxLength={POST_LIMITS.description}
          className={fieldClass}
        />
      </Field>
      <Field id="post-tags" label={PUBLISH_TEXT.tags}>
        <input
          id="post-tags"
          value={draft.tagText}
          onChange={(e) => update({ tagText: e.target.value })}
          placeholder="postgres, node, testing"
          aria-describedby="post-tags-hint"
          className={fieldClass}
        />
        <p id="post-tags-hint" className={hintClass}>
          Separated by commas, up to {TAG_LIMITS.perPost}.
          {shownTags.length > 0 ? ` Saved as: ${shownTags.map((t) => `#${t}`).join(" ")}` : ""}
        </p>
      </Field>
      <PostLinkFields draft={draft} update={update} />
    </>
  );
}

/** Where the post was first published, and its copies elsewhere. */
function PostLinkFields({
  draft,
  update,
}: {
  draft: PostDraft;
  update: (changes: Partial<PostDraft>) => void;
}) {
  return (
    <>
      <Field id="post-canonical" label={POST_LINK_TEXT.canonical}>
        <input
          id="post-canonical"
          type="url"
          value={draft.canonicalUrl ?? ""}
          onChange={(e) => update({ canonicalUrl: e.target.value })}
          placeholder="https://dev.to/you/your-post"
          maxLength={POST_LINK_LIMITS.urlLength}
          aria-describedby="post-canonical-hint"
          className={fieldClass}
        />
        <p id="post-canonical-hint" className={hintClass}>
          {POST_LINK_TEXT.canonicalHint}
        </p>
      </Field>
      <Field id="post-syndication" label={POST_LINK_TEXT.syndication}>
        <textarea
          id="post-syndication"
          rows={2}
          value={draft.syndicationText ?? ""}
          onChange={(e) => update({ syndicationText: e.target.value })}
          placeholder="https://dev.to/you/your-post"
          aria-describedby="post-syndication-hint"
          className={fieldClass}
        />
        <p id="post-syndication-hint" className={hintClass}>
          {POST_LINK_TEXT.syndicationHint}
        </p>
      </Field>
    </>
  );
}

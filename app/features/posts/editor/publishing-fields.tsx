import { PUBLISH_TEXT } from "../publishing";
import type { Visibility } from "./post-draft";
import { fieldClass, hintClass, labelClass } from "./styles";

/** What happens to the post on save, for the hint under the choice. */
function visibilityHint(visibility: Visibility, wasPublished: boolean, timeZone: string | null) {
  if (visibility === "draft") return "Only you can see a draft.";
  if (visibility === "at") {
    return `It goes public by itself at that time${timeZone ? ` (your time zone, ${timeZone})` : ""}.`;
  }
  return wasPublished ? "It stays public, with its date." : "It goes public when you save.";
}

/**
 * The publishing choice: a draft (Unpublish, for a published post), public now (or kept
 * public), or at a time typed in the owner's time zone.
 */
export function PublishingFields({
  visibility,
  publishAt,
  wasPublished,
  timeZone,
  onVisibility,
  onPublishAt,
  sendToSubscribers,
  onSendToSubscribers,
}: {
  visibility: Visibility;
  publishAt: string;
  wasPublished: boolean;
  timeZone: string | null;
  onVisibility: (visibility: Visibility) => void;
  onPublishAt: (value: string) => void;
  /** The `Send to subscribers` choice; null when not offered (the post was public before). */
  sendToSubscribers: boolean | null;
  onSendToSubscribers: (send: boolean) => void;
}) {
  const options: { value: Visibility; label: string }[] = [
    { value: "draft", label: wasPublished ? PUBLISH_TEXT.unpublish : PUBLISH_TEXT.draft },
    { value: "now", label: wasPublished ? PUBLISH_TEXT.published : PUBLISH_TEXT.publish },
    { value: "at", label: PUBLISH_TEXT.publishAt },
  ];
  return (
    <fieldset>
      <legend className={labelClass}>Publishing</legend>
      <div className="mt-2 flex flex-col gap-2 sm:flex-row sm:flex-wrap sm:items-center sm:gap-6">
        {options.map(({ value, label }) => (
          <label key={value} className="inline-flex items-center gap-2">
            <input
              type="radio"
              name="visibility"
              value={value}
              checked={visibility === value}
              onChange={() => onVisibility(value)}
            />
            {label}
          </label>
        ))}
        <input
          type="datetime-local"
          aria-label={PUBLISH_TEXT.publishAt}
          aria-describedby="publish-at-hint"
          value={publishAt}
          disabled={visibility !== "at"}
          onChange={(e) => onPublishAt(e.target.value)}
          className={`${fieldClass} mt-0 w-auto disabled:opacity-60`}
        />
      </div>
      <p id="publish-at-hint" className={hintClass}>
        {visibilityHint(visibility, wasPublished, timeZone)}
      </p>
      {sendToSubscribers === null ? null : (
        <>
          <label className="mt-3 inline-flex items-center gap-2">
            <input
              type="checkbox"
              name="sendToSubscribers"
              aria-describedby="send-to-subscribers-hint"
              checked={sendToSubscribers}
              onChange={(e) => onSendToSubscribers(e.target.checked)}
            />
            {PUBLISH_TEXT.sendToSubscribers}
          </label>
          <p id="send-to-subscribers-hint" className={hintClass}>
            {PUBLISH_TEXT.sendToSubscribersHint}
          </p>
        </>
      )}
    </fieldset>
  );
}

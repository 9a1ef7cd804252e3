import { formatLongDate } from "~/lib/format";

import { RESPONSES_TEXT, type PostResponses, type ShownResponse } from "./responses";

/**
 * Under a post: the approved replies and mentions (author, their words, the date, a link to the
 * original) and how many liked and boosted it. Server-rendered markup only, in the cached page;
 * nothing when there is nothing to show. Each response is an h-cite, for readers of
 * microformats2.
 */
export function ResponsesSection({ responses }: { responses: PostResponses | null }) {
  if (!responses) return null;
  const { items, likes, boosts } = responses;
  if (items.length === 0 && likes === 0 && boosts === 0) return null;
  return (
    <section
      aria-labelledby="responses-heading"
      data-testid="responses"
      className="mx-auto max-w-3xl border-t border-slate-200 pt-8 dark:border-slate-800"
    >
      <h2 id="responses-heading" className="text-2xl font-bold text-slate-900 dark:text-white">
        {RESPONSES_TEXT.heading}
      </h2>
      {likes > 0 || boosts > 0 ? (
        <p data-testid="response-counts" className="mt-2 text-slate-700 dark:text-slate-300">
          {[
            likes > 0 ? RESPONSES_TEXT.likes(likes) : null,
            boosts > 0 ? RESPONSES_TEXT.boosts(boosts) : null,
          ]
            .filter(Boolean)
            .join(", ")}
        </p>
      ) : null}
      {items.length > 0 ? (
        <ol className="mt-4 space-y-6">
          {items.map((item) => (
            <ResponseItem key={item.id} item={item} />
          ))}
        </ol>
      ) : null}
    </section>
  );
}

function ResponseItem({ item }: { item: ShownResponse }) {
  const author = (
    <>
      {item.authorPhoto ? (
        <img
          src={item.authorPhoto}
          alt=""
          width={32}
          height={32}
          loading="lazy"
          referrerPolicy="no-referrer"
          className="u-photo size-8 rounded-full"
        />
      ) : null}
      <span className="p-name">{item.authorName}</span>
    </>
  );
  return (
    <li data-testid="response" className="p-comment h-cite">
      <p className="flex flex-wrap items-center gap-2 text-sm text-slate-700 dark:text-slate-300">
        {item.authorUrl ? (
          <a
            href={item.authorUrl}
            rel="nofollow noopener ugc"
            className="p-author h-card inline-flex items-center gap-2 font-medium text-sky-800 dark:text-sky-300"
          >
            {author}
          </a>
        ) : (
          <span className="p-author h-card inline-flex items-center gap-2 font-medium">
            {author}
          </span>
        )}
        {item.kind === "mention" ? <span>{RESPONSES_TEXT.mentioned}</span> : null}
        <a
          href={item.sourceUrl}
          rel="nofollow noopener ugc"
          className="u-url text-slate-600 dark:text-slate-400"
        >
          <time className="dt-published" dateTime={item.date}>
            {formatLongDate(item.date)}
          </time>
        </a>
      </p>
      {item.contentHtml ? (
        <div
          className="e-content prose prose-slate dark:prose-invert mt-2 max-w-none break-words"
          dangerouslySetInnerHTML={{ __html: item.contentHtml }}
        />
      ) : null}
    </li>
  );
}

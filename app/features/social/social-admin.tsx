import { Form, Link } from "react-router";

import {
  SOCIAL_FIELDS,
  SOCIAL_INTENTS,
  SOCIAL_PATH,
  SOCIAL_TEXT,
  type SocialAdminData,
  type SocialIntent,
} from "./admin";

const button =
  "rounded-lg border border-slate-300 px-3 py-1.5 text-sm font-medium hover:bg-slate-100 dark:border-slate-700 dark:hover:bg-slate-800";
const heading = "text-xl font-semibold text-slate-900 dark:text-white";
const muted = "mt-3 text-slate-600 dark:text-slate-400";

/** One button in its own form: works without JavaScript (POST, then a redirect back). */
function ActionButton({
  intent,
  id,
  label,
  about,
  page = 1,
}: {
  intent: SocialIntent;
  id: number;
  label: string;
  /** Who or what it acts on, for screen readers: "Approve" alone says not which. */
  about: string;
  page?: number;
}) {
  return (
    <Form method="post" className="inline">
      <input type="hidden" name={SOCIAL_FIELDS.id} value={id} />
      {page > 1 ? <input type="hidden" name={SOCIAL_FIELDS.page} value={page} /> : null}
      <button
        type="submit"
        name={SOCIAL_FIELDS.intent}
        value={intent}
        aria-label={`${label}: ${about}`}
        className={button}
      >
        {label}
      </button>
    </Form>
  );
}

const date = (iso: string) => <time dateTime={iso}>{iso.slice(0, 10)}</time>;

/** What the owner may do with a pending response, in the order the buttons show. */
const RESPONSE_ACTIONS: readonly [SocialIntent, string][] = [
  [SOCIAL_INTENTS.approve, SOCIAL_TEXT.approve],
  [SOCIAL_INTENTS.reject, SOCIAL_TEXT.reject],
  [SOCIAL_INTENTS.blockAuthor, SOCIAL_TEXT.blockAuthor],
  [SOCIAL_INTENTS.blockAuthorDomain, SOCIAL_TEXT.blockDomain],
];

/** /admin/social: the followers, the moderation queue and the block list. */
export function SocialAdmin({ data, error }: { data: SocialAdminData; error?: string }) {
  return (
    <div className="space-y-10 py-12">
      <div>
        <h1 className="text-3xl font-bold text-slate-900 dark:text-white">{SOCIAL_TEXT.title}</h1>
        {error ? (
          <p role="alert" className="mt-4 font-medium text-red-700 dark:text-red-300">
            {error}
          </p>
        ) : data.notice ? (
          <p role="status" className="mt-4 font-medium text-emerald-800 dark:text-emerald-300">
            {data.notice}
          </p>
        ) : null}
      </div>
      <Queue pending={data.pending} />
      <Followers followers={data.followers} />
      <Blocks blocks={data.blocks} />
    </div>
  );
}

function Queue({ pending }: { pending: SocialAdminData["pending"] }) {
  return (
    <section aria-labelledby="social-queue-heading">
      <h2 id="social-queue-heading" className={heading}>
        {SOCIAL_TEXT.queue} ({pending.length})
      </h2>
      {pending.length === 0 ? (
        <p className={muted}>{SOCIAL_TEXT.emptyQueue}</p>
      ) : (
        <ul data-testid="social-queue" className="mt-3 space-y-4">
          {pending.map((r) => {
            const who = r.authorName ?? r.authorUrl ?? r.sourceUrl;
            return (
              <li
                key={r.id}
                data-testid="social-pending"
                className="rounded-lg border border-slate-200 p-4 dark:border-slate-800"
              >
                <p className="text-sm text-slate-700 dark:text-slate-300">
                  A {r.kind} ({r.source}) from{" "}
                  <a href={r.authorUrl ?? r.sourceUrl} rel="nofollow noopener">
                    {who}
                  </a>{" "}
                  on <Link to={`/blog/${r.postSlug}`}>{r.postTitle}</Link>, {date(r.receivedAt)}.{" "}
                  <a href={r.sourceUrl} rel="nofollow noopener" className="break-all">
                    Source
                  </a>
                </p>
                {r.contentHtml ? (
                  <div
                    className="prose prose-slate dark:prose-invert mt-2 max-w-none"
                    dangerouslySetInnerHTML={{ __html: r.contentHtml }}
                  />
                ) : null}
                <div className="mt-3 flex flex-wrap gap-2">
                  {RESPONSE_ACTIONS.map(([intent, label]) => (
                    <ActionButton
                      key={intent}
                      intent={intent}
                      id={r.id}
                      label={label}
                      about={who}
                    />
                  ))}
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

function Followers({ followers }: { followers: SocialAdminData["followers"] }) {
  const { page, pageCount } = followers;
  const href = (n: number) => (n > 1 ? `${SOCIAL_PATH}?page=${n}` : SOCIAL_PATH);
  return (
    <section aria-labelledby="social-followers-heading">
      <h2 id="social-followers-heading" className={heading}>
        {SOCIAL_TEXT.followers} ({followers.total})
      </h2>
      {followers.rows.length === 0 ? (
        <p className={muted}>{SOCIAL_TEXT.noFollowers}</p>
      ) : (
        <table data-testid="social-followers" className="mt-3 w-full text-left text-sm">
          <thead>
            <tr className="border-b border-slate-200 dark:border-slate-800">
              <th className="py-2">Follower</th>
              <th>Since</th>
              <th>
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {followers.rows.map((f) => {
              const who = f.handle ?? f.actorUrl;
              return (
                <tr
                  key={f.id}
                  data-testid="social-follower"
                  className="border-b border-slate-100 dark:border-slate-800"
                >
                  <td className="py-2 break-all">
                    <a href={f.actorUrl} rel="nofollow noopener">
                      {f.name ? `${f.name} ` : ""}
                      {who}
                    </a>
                  </td>
                  <td>{date(f.createdAt)}</td>
                  <td className="space-x-2 py-2 text-right">
                    <ActionButton
                      intent={SOCIAL_INTENTS.removeFollower}
                      id={f.id}
                      label={SOCIAL_TEXT.remove}
                      about={who}
                      page={page}
                    />
                    <ActionButton
                      intent={SOCIAL_INTENTS.blockFollower}
                      id={f.id}
                      label={SOCIAL_TEXT.blockActor}
                      about={who}
                      page={page}
                    />
                    <ActionButton
                      intent={SOCIAL_INTENTS.blockFollowerDomain}
                      id={f.id}
                      label={SOCIAL_TEXT.blockDomain}
                      about={f.domain}
                      page={page}
                    />
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {pageCount > 1 ? (
        <nav aria-label="Follower pages" className="mt-4 flex items-center gap-3 text-sm">
          {page > 1 ? <Link to={href(page - 1)}>Previous</Link> : null}
          <span>
            Page {page} of {pageCount}
          </span>
          {page < pageCount ? <Link to={href(page + 1)}>Next</Link> : null}
        </nav>
      ) : null}
    </section>
  );
}

function Blocks({ blocks }: { blocks: SocialAdminData["blocks"] }) {
  return (
    <section aria-labelledby="social-blocks-heading">
      <h2 id="social-blocks-heading" className={heading}>
        {SOCIAL_TEXT.blocks} ({blocks.length})
      </h2>
      {blocks.length === 0 ? (
        <p className={muted}>{SOCIAL_TEXT.noBlocks}</p>
      ) : (
        <ul data-testid="social-blocks" className="mt-3 space-y-2 text-sm">
          {blocks.map((b) => (
            <li key={b.id} data-testid="social-block" className="flex flex-wrap items-center gap-3">
              <span className="break-all">
                {b.kind === "domain" ? "Domain" : "Actor"} {b.value}
              </span>
              {date(b.createdAt)}
              <ActionButton
                intent={SOCIAL_INTENTS.unblock}
                id={b.id}
                label={SOCIAL_TEXT.unblock}
                about={b.value}
              />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

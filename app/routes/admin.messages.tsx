import { useFetcher } from "react-router";

import { appContext } from "~/context";
import { pickContact } from "~/features/contact";
import {
  mailDeliveryConfigured,
  listMessages,
  type MessageStatus,
} from "~/features/contact/index.server";
import { pageMeta, siteOf } from "~/features/site";

import type { Route } from "./+types/admin.messages";

/** A stored message's status, or "off" while it waits with no transport configured. */
export type DeliveryState = MessageStatus | "off";

export async function loader({ context }: Route.LoaderArgs) {
  const { db, env } = context.get(appContext);
  const deliveryOn = mailDeliveryConfigured(env);
  const messages = await listMessages(db);
  return {
    messages: messages.map((m) => ({
      id: m.id,
      ...pickContact(m),
      receivedAt: m.createdAt.toISOString(),
      attempts: m.attempts,
      lastError: m.lastError,
      // Waiting with no transport configured reads "off": nothing will send it until one is.
      state: (m.status === "pending" && !deliveryOn ? "off" : m.status) as DeliveryState,
    })),
  };
}

export function meta({ matches }: Route.MetaArgs) {
  const site = siteOf(matches);
  return pageMeta({
    site,
    siteUrl: matches[0].loaderData.siteUrl,
    path: "/admin/messages",
    title: `Messages · ${site.name}`,
    description: "Contact messages.",
    noindex: true,
  });
}

const stateStyle: Record<DeliveryState, string> = {
  pending: "bg-amber-100 text-amber-900 dark:bg-amber-900 dark:text-amber-100",
  delivered: "bg-emerald-100 text-emerald-900 dark:bg-emerald-900 dark:text-emerald-100",
  failed: "bg-red-100 text-red-900 dark:bg-red-900 dark:text-red-100",
  spam: "bg-slate-200 text-slate-800 dark:bg-slate-700 dark:text-slate-100",
  off: "bg-slate-200 text-slate-800 dark:bg-slate-700 dark:text-slate-100",
};

const received = new Intl.DateTimeFormat("en-US", {
  dateStyle: "long",
  timeStyle: "short",
  timeZone: "UTC",
});

export default function Messages({ loaderData }: Route.ComponentProps) {
  return (
    <div className="py-12">
      <h1 className="text-3xl font-bold text-slate-900 dark:text-white">Messages</h1>
      {loaderData.messages.length === 0 ? (
        <p className="mt-6 text-slate-600 dark:text-slate-400">No messages yet.</p>
      ) : (
        <ul className="mt-6 space-y-4" data-testid="messages">
          {loaderData.messages.map((m) => (
            <li
              key={m.id}
              className="rounded-xl border border-slate-200 bg-white p-5 dark:border-slate-800 dark:bg-slate-900"
            >
              <div className="flex flex-wrap items-center justify-between gap-2">
                <h2 className="font-semibold text-slate-900 dark:text-white">
                  {m.name}{" "}
                  <a
                    href={`mailto:${m.email}`}
                    className="font-normal text-sky-800 hover:underline dark:text-sky-300"
                  >
                    {m.email}
                  </a>
                </h2>
                <span
                  className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ${stateStyle[m.state]}`}
                >
                  {m.state}
                </span>
              </div>
              <p className="mt-3 whitespace-pre-wrap break-words text-slate-800 dark:text-slate-200">
                {m.message}
              </p>
              <p className="mt-3 text-sm text-slate-600 dark:text-slate-400">
                Received{" "}
                <time dateTime={m.receivedAt}>{received.format(new Date(m.receivedAt))} UTC</time>
                {m.attempts > 0
                  ? ` · ${m.attempts} delivery attempt${m.attempts === 1 ? "" : "s"}`
                  : ""}
                {m.lastError && m.state !== "delivered" ? ` · last error: ${m.lastError}` : ""}
              </p>
              {m.state === "failed" ? <RetryButton id={m.id} /> : null}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function RetryButton({ id }: { id: number }) {
  const fetcher = useFetcher();
  return (
    <fetcher.Form method="post" action={`/api/messages/${id}/retry`} className="mt-3">
      <button
        type="submit"
        disabled={fetcher.state !== "idle"}
        className="rounded-lg border border-slate-300 px-3 py-1.5 text-sm font-medium hover:bg-slate-100 disabled:opacity-60 dark:border-slate-700 dark:hover:bg-slate-800"
      >
        Retry
      </button>
    </fetcher.Form>
  );
}

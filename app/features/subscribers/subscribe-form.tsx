import {
  SUBSCRIBE_FIELDS,
  SUBSCRIBE_PATH,
  SUBSCRIBE_TEXT,
  SUBSCRIBER_EMAIL_MAX,
  type SubscribeOutcome,
} from "./subscribe";

/**
 * The subscription form: a plain HTML form that posts to /subscribe and gets a page back, so it
 * works without JavaScript, and the same bytes for every visitor (cached pages carry it).
 * `outcome`: the answer, on the /subscribe page itself.
 */
export function SubscribeForm({ outcome }: { outcome?: SubscribeOutcome }) {
  return (
    <section
      aria-labelledby="subscribe-heading"
      data-testid="subscribe"
      className="mx-auto my-12 max-w-2xl rounded-xl border border-slate-200 bg-white p-6 dark:border-slate-800 dark:bg-slate-900"
    >
      <h2 id="subscribe-heading" className="text-xl font-semibold text-slate-900 dark:text-white">
        {SUBSCRIBE_TEXT.heading}
      </h2>
      <p className="mt-2 text-slate-700 dark:text-slate-300">{SUBSCRIBE_TEXT.intro}</p>
      {outcome && !outcome.ok ? (
        <p role="alert" className="mt-3 font-medium text-red-700 dark:text-red-300">
          {outcome.message}
        </p>
      ) : null}
      <form method="post" action={SUBSCRIBE_PATH} className="mt-4 flex flex-wrap gap-3">
        <label className="sr-only" htmlFor="subscribe-email">
          {SUBSCRIBE_TEXT.label}
        </label>
        <input
          id="subscribe-email"
          name={SUBSCRIBE_FIELDS.email}
          type="email"
          required
          maxLength={SUBSCRIBER_EMAIL_MAX}
          autoComplete="email"
          placeholder={SUBSCRIBE_TEXT.label}
          className="min-w-0 flex-1 rounded-lg border border-slate-300 bg-white px-3 py-2 text-slate-900 dark:border-slate-700 dark:bg-slate-950 dark:text-white"
        />
        {/* Hidden from people; bots fill it in (the request then changes nothing). */}
        <input
          type="text"
          name={SUBSCRIBE_FIELDS.honeypot}
          tabIndex={-1}
          autoComplete="off"
          aria-hidden="true"
          className="hidden"
        />
        <button
          type="submit"
          className="rounded-lg bg-sky-700 px-4 py-2 font-semibold text-white hover:bg-sky-800"
        >
          {SUBSCRIBE_TEXT.button}
        </button>
      </form>
    </section>
  );
}

/** The answer to a successful request, on the /subscribe page. */
export function SubscribeDone({ outcome }: { outcome: SubscribeOutcome }) {
  return (
    <section role="status" data-testid="subscribe-done" className="mx-auto my-16 max-w-2xl">
      <h1 className="text-3xl font-bold text-slate-900 dark:text-white">{outcome.title}</h1>
      <p className="mt-4 text-slate-700 dark:text-slate-300">{outcome.message}</p>
    </section>
  );
}

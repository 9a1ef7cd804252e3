import {
  SUBSCRIBE_FIELDS,
  SUBSCRIBE_FORM_TEXT as TEXT,
  SUBSCRIBE_PATH,
  SUBSCRIBER_EMAIL_MAX,
} from "./form";

/**
 * The subscription form: a plain HTML form that posts to /subscribe and gets a page back, so it
 * works without JavaScript, and the same bytes for every visitor (cached pages carry it).
 * `problem`: what went wrong, on the /subscribe page itself.
 */
export function SubscribeForm({ problem }: { problem?: string }) {
  return (
    <section
      aria-labelledby="subscribe-heading"
      data-testid="subscribe"
      className="mx-auto my-12 max-w-2xl rounded-xl border border-slate-200 p-6 dark:border-slate-800"
    >
      <h2 id="subscribe-heading" className="text-xl font-semibold">
        {TEXT.heading}
      </h2>
      <p className="mt-2">{TEXT.intro}</p>
      {problem ? (
        <p role="alert" className="mt-3 font-medium text-red-700 dark:text-red-300">
          {problem}
        </p>
      ) : null}
      <form method="post" action={SUBSCRIBE_PATH} className="mt-4 flex flex-wrap items-end gap-3">
        <label htmlFor="subscribe-email" className="w-full text-sm font-medium">
          {TEXT.label}
        </label>
        <input
          id="subscribe-email"
          name={SUBSCRIBE_FIELDS.email}
          type="email"
          required
          maxLength={SUBSCRIBER_EMAIL_MAX}
          autoComplete="email"
          placeholder="you@example.com"
          className="min-w-0 flex-1 rounded-lg border border-slate-300 px-3 py-2 dark:border-slate-700 dark:bg-slate-950"
        />
        {/* Hidden from people; bots fill it in (the request then changes nothing). */}
        <input name={SUBSCRIBE_FIELDS.honeypot} tabIndex={-1} aria-hidden className="hidden" />
        <button type="submit" className="rounded-lg bg-sky-700 px-4 py-2 font-semibold text-white">
          {TEXT.button}
        </button>
      </form>
    </section>
  );
}

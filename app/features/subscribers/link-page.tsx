import { LINK_TEXT, type LinkState } from "./link-texts";

/**
 * The page a confirmation or unsubscribe link opens: its state in words, and while the link is
 * good, a button that posts to the same URL (a GET changes nothing).
 */
export function LinkPage({ kind, state }: { kind: keyof typeof LINK_TEXT; state: LinkState }) {
  const text = LINK_TEXT[kind];
  return (
    <section data-testid={`${kind}-page`} className="mx-auto my-16 max-w-2xl">
      <h1 className="text-3xl font-bold text-slate-900 dark:text-white">{text.title}</h1>
      <p
        role={state === "ready" ? undefined : "status"}
        className="mt-4 text-slate-700 dark:text-slate-300"
      >
        {text[state]}
      </p>
      {state === "ready" ? (
        <form method="post" className="mt-6">
          <button
            type="submit"
            className="rounded-lg bg-sky-700 px-4 py-2 font-semibold text-white hover:bg-sky-800"
          >
            {text.button}
          </button>
        </form>
      ) : null}
    </section>
  );
}

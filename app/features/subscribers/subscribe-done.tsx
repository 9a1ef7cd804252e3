import type { SubscribeOutcome } from "./subscribe";

/** The answer to a successful request, on the /subscribe page. */
export function SubscribeDone({ outcome }: { outcome: SubscribeOutcome }) {
  return (
    <section role="status" data-testid="subscribe-done" className="mx-auto my-16 max-w-2xl">
      <h1 className="text-3xl font-bold text-slate-900 dark:text-white">{outcome.title}</h1>
      <p className="mt-4 text-slate-700 dark:text-slate-300">{outcome.message}</p>
    </section>
  );
}

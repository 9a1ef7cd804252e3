import type { Database } from "../database/db.server";
import type { MailTransport } from "../app/features/contact/index.server";
import {
  NEWSLETTER_SENDING,
  onNewsletterQueued,
  sendNewsletterRound,
  type NewsletterSender,
} from "../app/features/subscribers/index.server";
import { errorMessage, logEvent } from "../app/lib/log.server";

export type NewsletterWorker = {
  /** Look now (recipients were just written). */
  wake(): void;
  /** The current look, if any: resolves once nothing more can be sent now (tests). */
  settled(): Promise<void>;
  /** Stop; resolves once the mail in flight, if any, is sent and marked. */
  stop(): Promise<void>;
};

/**
 * The newsletter's send worker, one per server process (docs/decisions/037-newsletter.md). Any
 * number of processes may run it against one PostgreSQL database: claims skip what another
 * worker holds, and all take from one rate budget.
 */
export function startNewsletterWorker(
  db: Database,
  transport: MailTransport | null,
  options: Omit<NewsletterSender, "db" | "transport" | "stopping">,
): NewsletterWorker {
  if (!transport) {
    console.log(
      "Newsletter sending is off: no SMTP_URL or RESEND_API_KEY. New posts' mails wait as pending in /admin/posts.",
    );
    return { wake() {}, settled: async () => {}, stop: async () => {} };
  }
  let stopped = false;
  let again = false;
  let running: Promise<void> | null = null;
  let timer: NodeJS.Timeout | undefined;
  const sender: NewsletterSender = { db, transport, ...options, stopping: () => stopped };

  const arm = (ms: number) => {
    clearTimeout(timer);
    if (stopped) return;
    timer = setTimeout(look, ms);
    timer.unref();
  };

  /** Rounds until nothing is due, or the budget asks to wait; then the timer. */
  const rounds = async (): Promise<number> => {
    for (;;) {
      const round = await sendNewsletterRound(sender);
      if (stopped || round.againInMs === null) return NEWSLETTER_SENDING.pollMs;
      if (round.againInMs > 0) return round.againInMs;
    }
  };

  function look() {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      let next: number;
      do {
        again = false;
        next = await rounds().catch((error: unknown) => {
          logEvent("error", "newsletter-unavailable", { error: errorMessage(error) });
          return NEWSLETTER_SENDING.pollMs;
        });
      } while (again && !stopped);
      arm(next);
    })().finally(() => {
      running = null;
    });
  }

  const unlisten = onNewsletterQueued(() => look());
  look();
  return {
    wake: () => look(),
    settled: async () => {
      while (running) await running;
    },
    stop: async () => {
      stopped = true;
      unlisten();
      clearTimeout(timer);
      await running;
      transport.close?.();
    },
  };
}

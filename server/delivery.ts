import { errorMessage, logEvent } from "../app/lib/log.server";
import {
  contactMail,
  type MailTransport,
  claimDueMessages,
  markAttemptFailed,
  markDelivered,
  POLL_MS,
} from "../app/features/contact/index.server";
import type { Database } from "../database/db.server";

export type DeliveryWorker = {
  /** Look now (a message was just stored). */
  wake(): void;
  /** Stop looking; resolves once the send in flight, if any, is finished. */
  stop(): Promise<void>;
};

/**
 * The contact outbox's delivery worker, one per server process. Any number of processes may run
 * it against one PostgreSQL database: claims skip what another worker holds.
 */
export function startDeliveryWorker(
  db: Database,
  transport: MailTransport | null,
  /** OWNER_EMAIL when set; otherwise the profile's e-mail, read when each batch is sent. */
  recipient: { fixed: string } | { read: () => Promise<string> },
  from: string,
): DeliveryWorker {
  if (!transport) {
    console.log(
      "Contact delivery is off: no SMTP_URL or RESEND_API_KEY. Messages are stored and shown at /admin/messages.",
    );
    return { wake() {}, stop: async () => {} };
  }
  let stopped = false;
  let running: Promise<void> | null = null;
  let timer: NodeJS.Timeout | undefined;

  const runOnce = async () => {
    for (;;) {
      const batch = await claimDueMessages(db);
      if (batch.length === 0) return;
      const ownerEmail = "fixed" in recipient ? recipient.fixed : await recipient.read();
      for (const message of batch) {
        try {
          await transport.send(contactMail(message, { to: ownerEmail, from }));
          await markDelivered(db, message.id);
        } catch (error) {
          const text = errorMessage(error);
          logEvent("error", "contact-delivery-failed", {
            id: message.id,
            attempt: message.attempts,
            error: text,
          });
          await markAttemptFailed(db, message, text);
        }
        if (stopped) return;
      }
    }
  };

  const tick = () => {
    if (stopped || running) return;
    running = runOnce()
      .catch((error: unknown) => console.error("Contact delivery worker:", errorMessage(error)))
      .finally(() => {
        running = null;
        schedule();
      });
  };
  const schedule = () => {
    clearTimeout(timer);
    if (!stopped) timer = setTimeout(tick, POLL_MS);
  };

  console.log(
    `Contact delivery: ${transport.name}, to ${"fixed" in recipient ? recipient.fixed : "the profile's e-mail"}.`,
  );
  tick();
  return {
    wake: () => {
      clearTimeout(timer);
      tick();
    },
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}

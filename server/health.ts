import { errorMessage, logEvent } from "../app/lib/log.server";

/** How long a health check waits for the database before calling it down. */
const CHECK_TIMEOUT_MS = 1000;
/**
 * How old the database's last answer may be for `/healthz` to give it again without asking
 * (server/middleware/health-check.ts): the most a health check lags a database that went away.
 */
export const HEALTH_ANSWER_FRESH_MS = 1000;
/** While down, the database is asked this often whether it is back. */
const RECHECK_EVERY_MS = 1000;

/**
 * Whether the database answers. A server error on a page makes the server ask; while the answer
 * is no, pages are answered 503 at once (app/root.tsx's middleware) instead of each waiting on
 * the database, and a timer asks again until it is back: recovery needs no restart.
 */
export class DatabaseHealth {
  private down = false;
  private timer: NodeJS.Timeout | undefined;
  private checking: Promise<boolean> | null = null;

  constructor(private readonly ping: (timeoutMs: number) => Promise<void>) {}

  get isDown() {
    return this.down;
  }

  /** Asks the database now (one question at a time); true when it answered. */
  check(): Promise<boolean> {
    this.checking ??= this.ping(CHECK_TIMEOUT_MS).then(
      () => {
        this.checking = null;
        if (this.down) {
          this.down = false;
          clearInterval(this.timer);
          this.timer = undefined;
          logEvent("info", "database-up", {});
        }
        return true;
      },
      (error: unknown) => {
        this.checking = null;
        if (!this.down) {
          this.down = true;
          logEvent("error", "database-down", { error: errorMessage(error) });
          this.timer = setInterval(() => void this.check(), RECHECK_EVERY_MS);
          this.timer.unref();
        }
        return false;
      },
    );
    return this.checking;
  }
}

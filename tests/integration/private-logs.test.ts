// Logs are private: no contact message's text, visitor's e-mail, password hash or database
// password reaches them, even when the database refuses a write and the ORM's error carries the
// values it was writing. Each case forces the failure for real, on both databases.
import { sql } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import { handleContact } from "../../app/features/contact/submit.server";
import { errorMessage } from "../../app/lib/log.server";
import { setOwnerPassword } from "../../app/features/owner/auth.server";
import { drivers, routeContext, skipReason, type TestDatabase } from "./databases";

const MESSAGE = "Private message text: call me on 087 123 4567";
const EMAIL = "recruiter.private@example.com";
const PASSWORD = "correct horse battery staple";

/** Everything written to the console while `run` runs, as one text. */
async function captured(run: () => Promise<unknown>): Promise<string> {
  const lines: string[] = [];
  const keep = (...args: unknown[]) =>
    lines.push(
      args.map((a) => (a instanceof Error ? `${a.message} ${a.stack}` : String(a))).join(" "),
    );
  const spies = (["log", "info", "warn", "error"] as const).map((name) =>
    vi.spyOn(console, name).mockImplementation(keep),
  );
  try {
    await run().catch(() => {});
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
  return lines.join("\n");
}

/** A trigger that refuses every insert or update of `table`, as a full disk or a policy would. */
async function refuseWrites(database: TestDatabase, table: string) {
  await database.db.execute(
    sql.raw(`create function refuse_write() returns trigger language plpgsql as $$
      begin raise exception 'writes are refused'; end $$`),
  );
  await database.db.execute(
    sql.raw(`create trigger refuse_write before insert or update on ${table}
      for each row execute function refuse_write()`),
  );
}

for (const driver of drivers) {
  describe.skipIf(skipReason(driver) !== null)(`private logs on ${driver.name}`, () => {
    let database: TestDatabase;
    beforeEach(async () => {
      database = await driver.fresh();
    });
    afterEach(async () => {
      await database.dispose();
    });

    it("a refused contact message logs its failure, not its text or sender", async () => {
      await refuseWrites(database, "contact_messages");
      const request = new Request("http://localhost/api/contact", {
        method: "POST",
        body: new URLSearchParams({ name: "Ana Recruiter", email: EMAIL, message: MESSAGE }),
      });
      let status = 0;
      const logged = await captured(async () => {
        status = (await handleContact(request, routeContext(database))).status;
      });
      expect(status).toBe(500);
      expect(logged).toContain("contact-store-failed");
      expect(logged).toContain("writes are refused");
      expect(logged).not.toContain(MESSAGE);
      expect(logged).not.toContain(EMAIL);
      expect(logged).not.toContain("Ana Recruiter");
    });

    it("a refused password change logs neither the password nor its hash", async () => {
      await refuseWrites(database, "owner");
      let failure: unknown;
      await setOwnerPassword(database.db, PASSWORD).catch((error: unknown) => (failure = error));
      // The ORM's own message holds the hash it tried to write: that is what must not be logged.
      const raw = (failure as Error).message;
      const hash = /scrypt\$[^\s,]+/.exec(raw)?.[0];
      expect(hash, raw).toBeDefined();
      const logged = errorMessage(failure);
      expect(logged).toContain("writes are refused");
      expect(logged).toContain("Failed query: insert into");
      expect(logged).not.toContain(hash!);
      expect(logged).not.toContain("scrypt$");
      expect(logged).not.toContain(PASSWORD);
    });

    it("a value quoted in a database error is masked; names are kept", async () => {
      let failure: unknown;
      await database.db
        .execute(sql`select ${EMAIL}::integer`)
        .catch((error: unknown) => (failure = error));
      expect(String((failure as Error).cause ?? failure)).toContain(EMAIL);
      const logged = errorMessage(failure);
      expect(logged).toContain("22P02");
      expect(logged).toContain('invalid input syntax for type integer: "…"');
      expect(logged).not.toContain(EMAIL);

      let duplicate: unknown;
      await database.db
        .execute(sql`insert into app_meta (key, value) values ('x', ${EMAIL}), ('x', ${EMAIL})`)
        .catch((error: unknown) => (duplicate = error));
      const text = errorMessage(duplicate);
      expect(text).toContain('violates unique constraint "app_meta_pkey"');
      expect(text).not.toContain(EMAIL);
    });
  });
}

import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import { parseCsv } from "../../app/features/subscribers/csv";
import {
  subscriberAdminAction,
  subscriberAdminData,
} from "../../app/features/subscribers/index.server";
import { jobs, subscribers } from "../../database/schema";
import { drivers, skipReason, type TestDatabase } from "./databases";
import { contextFor, linkIn, runConfirmJobs, SITE_URL, smtpPeer } from "./subscriber-fixtures";

type ActionResult = { data: unknown; init: { status?: number } | null };

for (const driver of drivers) {
  describe.skipIf(skipReason(driver) !== null)(`the owner's subscribers on ${driver.name}`, () => {
    let database: TestDatabase;
    beforeEach(async () => {
      database = await driver.fresh();
      vi.spyOn(console, "log").mockImplementation(() => {});
    });
    afterEach(async () => {
      vi.restoreAllMocks();
      await database.dispose();
    });

    const list = (query = "") =>
      subscriberAdminData(
        new Request(`${SITE_URL}/admin/subscribers${query}`),
        contextFor(database),
      );
    const act = async (form: FormData) =>
      (await subscriberAdminAction(
        new Request(`${SITE_URL}/admin/subscribers`, { method: "POST", body: form }),
        contextFor(database),
      )) as unknown as ActionResult;
    const csvForm = (text: string) => {
      const form = new FormData();
      form.set("intent", "preview");
      form.set("file", new File([text], "list.csv", { type: "text/csv" }));
      return form;
    };
    const importForm = (emails: string[], consent: boolean) => {
      const form = new FormData();
      form.set("intent", "import");
      form.set("emails", emails.join("\n"));
      if (consent) form.set("consent", "on");
      return form;
    };
    const all = () => database.db.select().from(subscribers).orderBy(subscribers.id);

    it("counts, pages, searches, removes and exports", async () => {
      await database.db.insert(subscribers).values(
        Array.from({ length: 120 }, (_, n) => ({
          email: `reader${String(n).padStart(3, "0")}@${n % 3 === 0 ? "corp.example" : "example.com"}`,
          status: n % 4 === 0 ? ("pending" as const) : ("confirmed" as const),
          createdAt: new Date(Date.UTC(2026, 0, 1, 0, n)),
        })),
      );
      const first = await list();
      expect(first.counts).toEqual({ total: 120, pending: 30, confirmed: 90, unsubscribed: 0 });
      expect(first.subscribers).toHaveLength(50);
      expect(first.pageCount).toBe(3);
      expect(first.subscribers[0]!.email).toBe("reader119@example.com"); // newest first
      const third = await list("?page=3");
      expect(third.subscribers).toHaveLength(20);
      expect(third.subscribers.at(-1)!.email).toBe("reader000@corp.example");
      expect((await list("?page=99")).page).toBe(3);

      const found = await list("?q=CORP.example");
      expect(found.total).toBe(40);
      expect(found.subscribers.every((s) => s.email.endsWith("@corp.example"))).toBe(true);
      // `%` and `_` match themselves.
      expect((await list("?q=%25")).total).toBe(0);

      const target = first.subscribers[0]!;
      const removeForm = new FormData();
      removeForm.set("intent", "remove");
      removeForm.set("id", String(target.id));
      expect((await act(removeForm)).data).toEqual({ kind: "done", message: "Removed." });
      expect((await list()).counts.total).toBe(119);
      expect((await act(removeForm)).init?.status).toBe(404);

      const response = await exportCsv();
      const rows = parseCsv(response);
      expect(rows[0]).toEqual([
        "email",
        "status",
        "source",
        "created_at",
        "confirmed_at",
        "unsubscribed_at",
      ]);
      expect(rows).toHaveLength(120);
      expect(rows[1]).toEqual([
        "reader000@corp.example",
        "pending",
        "form",
        "2026-01-01T00:00:00.000Z",
        "",
        "",
      ]);
    });

    const exportCsv = async () => {
      const { loader } = await import("../../app/routes/admin.subscribers-csv");
      const response = await loader({
        context: contextFor(database),
        request: new Request(`${SITE_URL}/admin/subscribers.csv`),
        params: {},
      } as never);
      expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
      return response.text();
    };

    it("previews an import (new, already there, invalid) and stores nothing until confirmed", async () => {
      await database.db.insert(subscribers).values({ email: "known@example.com" });
      const file = [
        "name,email",
        "Ana,Ana@Example.com",
        "Known,known@example.com",
        "Bad,not-an-address",
        ",",
        'Bo,"bo@example.com"',
        "Dup,ana@example.com",
      ].join("\r\n");
      const { data } = await act(csvForm(file));
      expect(data).toEqual({
        kind: "preview",
        preview: {
          fresh: ["ana@example.com", "bo@example.com"],
          existing: ["known@example.com"],
          invalid: [{ line: 4, text: "not-an-address" }],
        },
      });
      expect(await all()).toHaveLength(1);
      // No header: the first column.
      const plain = await act(csvForm("cy@example.com\ndi@example.com\n"));
      expect(plain.data).toMatchObject({
        preview: { fresh: ["cy@example.com", "di@example.com"] },
      });
      expect((await act(csvForm(""))).init?.status).toBe(400);
      const tooMany = Array.from({ length: 10_001 }, (_, n) => `r${n}@example.com`).join("\n");
      expect((await act(csvForm(tooMany))).init?.status).toBe(413);
      expect(await all()).toHaveLength(1);
    });

    it("consent imports as confirmed with no mail; without it, pending with a confirmation mail", async () => {
      const consented = await act(importForm(["ana@example.com", "bo@example.com"], true));
      expect(consented.data).toEqual({
        kind: "done",
        message: "Imported 2 addresses as confirmed.",
      });
      const rows = await all();
      expect(rows.map((r) => [r.email, r.status, r.source])).toEqual([
        ["ana@example.com", "confirmed", "import"],
        ["bo@example.com", "confirmed", "import"],
      ]);
      expect(rows[0]!.consentedAt).toBeInstanceOf(Date);
      expect(await database.db.select().from(jobs)).toEqual([]);

      const smtp = await smtpPeer();
      try {
        // Already there (added meanwhile) or invalid: skipped.
        const asked = await act(importForm(["cy@example.com", "ana@example.com", "x"], false));
        expect(asked.data).toEqual({
          kind: "done",
          message: "Imported 1 address; each was sent a confirmation mail.",
        });
        const [cy] = await database.db
          .select()
          .from(subscribers)
          .where(eq(subscribers.email, "cy@example.com"));
        expect(cy).toMatchObject({ status: "pending", source: "import", consentedAt: null });
        await runConfirmJobs(database, smtp.url);
        expect(smtp.received.map((m) => m.to)).toEqual([["cy@example.com"]]);
        expect(linkIn(smtp.received[0]!.raw)).toContain(`s=${cy!.id}`);
        expect((await act(importForm(["ana@example.com"], false))).init?.status).toBe(400);
      } finally {
        await smtp.close();
      }
    });
  });
}

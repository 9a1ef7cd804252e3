import type { Page } from "@playwright/test";
import pg from "pg";

import { LINK_TEXT } from "../../app/features/subscribers/link-texts";
import { smtpPeer } from "../integration/mail-peer";
import { expect, test } from "./fixtures";
import { nextAlert, signInPage } from "./owner";
import { freshDatabase, serveOn } from "./processes";

/**
 * `Send to subscribers` in the editor, on a server of its own (PostgreSQL, a real SMTP peer):
 * on by default for a new post, whose publication reaches a confirmed subscriber; off, nothing
 * goes; once a post was public the choice is no longer offered.
 */
const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;
/** This spec's own server, in the newsletter's port range. */
const PORT = 4950;

test.describe.configure({ mode: "serial", timeout: 90_000 });
test.use({ baseURL: `http://127.0.0.1:${PORT}` });

const editorArea = (page: Page) => page.getByRole("textbox", { name: "Content *" });

test.describe("sending a new post to subscribers", () => {
  test.skip(!TEST_DATABASE_URL, "TEST_DATABASE_URL is not set: this test needs PostgreSQL");

  let database: Awaited<ReturnType<typeof freshDatabase>>;
  let peer: Awaited<ReturnType<typeof smtpPeer>>;
  let server: Awaited<ReturnType<typeof serveOn>>["server"];
  const query = async <T>(sql: string, values: unknown[] = []) => {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      return (await client.query(sql, values)).rows as T[];
    } finally {
      await client.end();
    }
  };

  test.beforeAll(async () => {
    database = await freshDatabase("newsletter");
    peer = await smtpPeer();
    ({ server } = await serveOn(PORT, database.url, { SMTP_URL: peer.url }));
    await query(
      "insert into subscribers (email, status) values ('ana@example.com', 'confirmed'), ('bo@example.com', 'pending')",
    );
  });

  test.afterAll(async () => {
    server?.child.kill("SIGTERM");
    await server?.exited;
    await peer?.close();
    await database?.drop();
  });

  async function writePost(page: Page, title: string, send: boolean) {
    await page.goto("/blog/new");
    await page.getByLabel("Title *").fill(title);
    await editorArea(page).click();
    await page.keyboard.type("A post for the readers.");
    const checkbox = page.getByRole("checkbox", { name: "Send to subscribers" });
    await expect(checkbox).toBeChecked();
    if (!send) await checkbox.uncheck();
    const alert = nextAlert(page);
    await page.getByRole("button", { name: "Save Post" }).click();
    await alert;
  }

  test("a new post is sent to the confirmed subscriber; one with the box unticked is not", async ({
    page,
  }) => {
    await signInPage(page, "/admin/posts");
    await writePost(page, "Sent to readers", true);
    await expect.poll(() => peer.received.length, { timeout: 30_000 }).toBe(1);
    expect(peer.received[0]!.to).toEqual(["ana@example.com"]);
    expect(peer.received[0]!.headers.get("subject")).toBe("Sent to readers");

    await writePost(page, "Kept quiet", false);
    const [quiet] = await query<{ send: boolean; first: Date | null }>(
      "select send_to_subscribers as send, first_published_at as first from blog_posts where title = 'Kept quiet'",
    );
    expect(quiet).toMatchObject({ send: false });
    expect(quiet!.first).not.toBeNull();
    const [jobs] = await query<{ n: number }>(
      "select count(*)::int as n from newsletter_sends s join blog_posts p on p.id = s.post_id where p.title = 'Kept quiet'",
    );
    expect(jobs!.n).toBe(0);

    // The owner's list says how the first went; the editor of a published post offers no choice.
    await page.goto("/admin/posts");
    await expect(page.getByTestId("post-newsletter")).toHaveText(
      "Newsletter: 1 sent, 0 pending, 0 failed",
    );
    await page.getByRole("link", { name: "Edit Sent to readers" }).click();
    await expect(page.getByLabel("Title *")).toHaveValue("Sent to readers");
    await expect(page.getByRole("checkbox", { name: "Send to subscribers" })).toHaveCount(0);
    expect(peer.received).toHaveLength(1);
  });

  test("a reader leaves from the mail itself, by one-click POST or the footer's page; nothing is sent after", async ({
    browser,
    page,
    request,
  }) => {
    await query(
      "insert into subscribers (email, status) values ('cy@example.com', 'confirmed'), ('di@example.com', 'confirmed')",
    );
    const before = peer.received.length;
    await signInPage(page, "/admin/posts");
    await writePost(page, "For three readers", true);
    await expect.poll(() => peer.received.length, { timeout: 30_000 }).toBe(before + 3);
    const mailTo = (who: string) => peer.received.slice(before).find((m) => m.to[0] === who)!;

    // RFC 8058: the mail client POSTs the one-click body to the List-Unsubscribe URL, with no
    // cookie of the site's.
    const cy = mailTo("cy@example.com");
    expect(cy.headers.get("list-unsubscribe-post")).toBe("List-Unsubscribe=One-Click");
    const oneClick = /<(https?:[^>]+)>/.exec(cy.headers.get("list-unsubscribe") ?? "")?.[1];
    expect(oneClick, "the List-Unsubscribe header names an https or http URL").toBeTruthy();
    const answer = await request.post(oneClick!, { form: { "List-Unsubscribe": "One-Click" } });
    expect(answer.status()).toBe(200);

    // The footer's link opens a page whose button unsubscribes (a GET alone changes nothing).
    const footer = /href="([^"]*\/unsubscribe\?[^"]+)"/
      .exec(mailTo("di@example.com").html)?.[1]
      ?.replaceAll("&amp;", "&");
    expect(footer, "the mail's footer links to the unsubscribe page").toBeTruthy();
    const reader = await browser.newPage();
    try {
      await reader.goto(footer!);
      await expect(reader.getByText(LINK_TEXT.unsubscribe.ready)).toBeVisible();
      expect(
        await query<{ status: string }>(
          "select status from subscribers where email = 'di@example.com'",
        ),
      ).toEqual([{ status: "confirmed" }]);
      await reader.getByRole("button", { name: LINK_TEXT.unsubscribe.button }).click();
      await expect(reader.getByText(LINK_TEXT.unsubscribe.done)).toBeVisible();
    } finally {
      await reader.close();
    }
    expect(
      await query<{ email: string; status: string }>(
        "select email, status from subscribers where email in ('cy@example.com', 'di@example.com') order by email",
      ),
    ).toEqual([
      { email: "cy@example.com", status: "unsubscribed" },
      { email: "di@example.com", status: "unsubscribed" },
    ]);

    // The next post reaches the one reader who stayed.
    const afterLeaving = peer.received.length;
    await writePost(page, "After two left", true);
    await expect.poll(() => peer.received.length, { timeout: 30_000 }).toBe(afterLeaving + 1);
    await page.waitForTimeout(2000);
    expect(peer.received.slice(afterLeaving).map((m) => m.to[0])).toEqual(["ana@example.com"]);
  });
});

// The test peer and the wire-format checker on their own, before they judge the site: two
// independent Fedify peers on loopback find each other, a signed Follow passes the checker and
// Fedify's inbox, and the checker and the inbox refuse what Mastodon would.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { startFediversePeer, type FediversePeer } from "../fediverse/peer";
import { checkDelivery } from "../fediverse/wire-check";

describe("the fediverse test peer", () => {
  let alice: FediversePeer;
  let bob: FediversePeer;
  beforeAll(async () => {
    alice = await startFediversePeer({ name: "alice" });
    bob = await startFediversePeer({ name: "bob", host: "127.0.0.1" });
  });
  afterAll(async () => {
    await alice?.close();
    await bob?.close();
  });

  it("follows another Fedify server, the delivery passing the wire checks and the inbox", async () => {
    const actor = await alice.lookup(bob.actorId);
    expect(actor.id?.href).toBe(bob.actorId);
    await alice.follow(actor);
    expect(bob.inbox.map((a) => [a.type, a.json.actor])).toEqual([["Follow", alice.actorId]]);
    expect(bob.deliveries).toHaveLength(1);
    expect(bob.deliveries[0]!.problems).toEqual([]);
    expect(bob.deliveries[0]!.path).toBe("/users/bob/inbox");
  });

  it("answers unsigned and forged requests 401 and records nothing in the inbox", async () => {
    const inbox = `${bob.origin}/users/bob/inbox`;
    expect((await alice.unsigned(inbox, alice.followJson(bob.actorId))).status).toBe(401);
    expect((await alice.forged(inbox, alice.followJson(bob.actorId))).status).toBe(401);
    expect(bob.inbox).toHaveLength(1);
    const [unsigned, forged] = bob.deliveries.slice(1);
    expect(unsigned!.problems).toContain("no Signature keyId");
    expect(forged!.problems).toContain("the signature does not verify with the actor's key");
  });

  it("finds a changed body, an old date and a wrong content type", async () => {
    const good = bob.deliveries[0]!;
    const port = Number(new URL(bob.origin).port);
    const tampered = { ...good, body: good.body.replace("Follow", "Block") };
    expect(await checkDelivery(tampered, "127.0.0.1", port)).toContain("unverifiable");
    const late = await checkDelivery(good, "127.0.0.1", port, Date.now() + 3_600_000);
    expect(late.some((p) => p.startsWith("date"))).toBe(true);
    const html = { ...good, headers: { ...good.headers, "content-type": "text/html" } };
    expect(await checkDelivery(html, "127.0.0.1", port)).toContain("content-type text/html");
  });
});

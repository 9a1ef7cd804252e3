import { describe, expect, it } from "vitest";

import { defaultHandle, fullHandle, HANDLE_MAX_CHARS, readHandle } from "./handle";
import { negotiatedPage, wantsActivityPub } from "./negotiation";

describe("the fediverse handle", () => {
  it("takes letters, digits and underscores, lower-cased, without a leading @", () => {
    expect(readHandle(" @Alex_B ")).toBe("alex_b");
    expect(readHandle("alex.byrne")).toBeNull();
    expect(readHandle("alex byrne")).toBeNull();
    expect(readHandle("")).toBeNull();
    expect(readHandle("a".repeat(HANDLE_MAX_CHARS))).toBe("a".repeat(HANDLE_MAX_CHARS));
    expect(readHandle("a".repeat(HANDLE_MAX_CHARS + 1))).toBeNull();
  });

  it("starts as the owner's name, and reads as @handle@host", () => {
    expect(defaultHandle("Alex Byrne")).toBe("alexbyrne");
    expect(defaultHandle("Zoë Ørsted")).toBe("zoersted");
    expect(defaultHandle("李")).toBe("owner");
    expect(fullHandle("alex", "https://blog.example.dev:8443")).toBe("@alex@blog.example.dev:8443");
  });
});

describe("content negotiation", () => {
  it("asks for ActivityPub with its types and not HTML", () => {
    expect(wantsActivityPub("application/activity+json")).toBe(true);
    expect(
      wantsActivityPub('application/ld+json; profile="https://www.w3.org/ns/activitystreams"'),
    ).toBe(true);
    expect(wantsActivityPub("text/html,application/xhtml+xml,*/*;q=0.8")).toBe(false);
    expect(wantsActivityPub("application/ld+json")).toBe(false);
    expect(wantsActivityPub(undefined)).toBe(false);
  });

  it("negotiates the home page and post pages only", () => {
    expect(negotiatedPage("/")).toBe("home");
    expect(negotiatedPage("/blog/a-post")).toBe("post");
    expect(negotiatedPage("/blog/tags")).toBeNull();
    expect(negotiatedPage("/blog/tags/sql")).toBeNull();
    expect(negotiatedPage("/blog")).toBeNull();
  });
});

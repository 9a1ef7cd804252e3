import { describe, expect, it } from "vitest";

import { POST_LINK_TEXT } from "../post-links";
import { PUBLISH_TEXT } from "../publishing";
import { missingAltText } from "../rules";
import { postRequestOf, type PostDraft } from "./post-draft";

const draft = (fields: Partial<PostDraft> = {}): PostDraft => ({
  title: "A post",
  description: "",
  html: "<p>Body</p>",
  empty: false,
  slug: "",
  tagText: "",
  visibility: "now",
  publishAt: "",
  sendToSubscribers: true,
  ...fields,
});

describe("the editor's request for a draft", () => {
  it("is the post API's body: the slug as typed, the tags read, the publishing asked", () => {
    expect(postRequestOf(draft({ slug: "Mine", tagText: "Node.js, node-js, SQL" }))).toEqual({
      body: {
        title: "A post",
        description: "",
        content: "<p>Body</p>",
        slug: "Mine",
        tags: ["node-js", "sql"],
        publish: { mode: "now" },
        sendToSubscribers: true,
        canonicalUrl: "",
        syndication: [],
      },
    });
    expect(
      postRequestOf(
        draft({ canonicalUrl: " https://dev.to/a ", syndicationText: "https://b.org/x\n\n" }),
      ),
    ).toMatchObject({
      body: { canonicalUrl: "https://dev.to/a", syndication: ["https://b.org/x"] },
    });
    expect(postRequestOf(draft({ syndicationText: "dev.to/x" }))).toEqual({
      problem: POST_LINK_TEXT.badUrl("dev.to/x"),
    });
    expect(postRequestOf(draft({ sendToSubscribers: false }))).toMatchObject({
      body: { sendToSubscribers: false },
    });
    expect(postRequestOf(draft({ visibility: "draft" }))).toMatchObject({
      body: { publish: { mode: "draft" } },
    });
    const at = "2030-07-01T10:00";
    expect(postRequestOf(draft({ visibility: "at", publishAt: at }))).toMatchObject({
      body: { publish: { mode: "at", at: new Date(at).toISOString() } },
    });
  });

  it("says the first problem the server would refuse it for", () => {
    expect(postRequestOf(draft({ html: '<p>x</p><img src="/media/a.webp">' }))).toEqual({
      problem: missingAltText(1),
    });
    expect(postRequestOf(draft({ slug: "123" }))).toEqual({ problem: PUBLISH_TEXT.badSlug });
    expect(postRequestOf(draft({ tagText: "a, b, c, d, e, f" }))).toEqual({
      problem: PUBLISH_TEXT.tooManyTags,
    });
    expect(postRequestOf(draft({ visibility: "at", publishAt: "" }))).toEqual({
      problem: PUBLISH_TEXT.badTime,
    });
  });
});

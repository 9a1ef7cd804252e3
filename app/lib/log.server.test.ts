import { describe, expect, it } from "vitest";

import { withoutCredentials } from "./log.server";

describe("URLs in logs", () => {
  it.each([
    ["postgres://app:s3cret@db.internal:5432/site", "postgres://app:***@db.internal:5432/site"],
    ["postgres://app:pa@ss@db.internal/site", "postgres://app:***@db.internal/site"],
    ["smtp://:only-a-password@mail.example:587", "smtp://***@mail.example:587"],
    ["connect to postgresql://u:p@h/d failed", "connect to postgresql://u:***@h/d failed"],
    ["no URL here", "no URL here"],
  ])("%s loses its password", (text, shown) => {
    expect(withoutCredentials(text)).toBe(shown);
  });
});

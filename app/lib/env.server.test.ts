import { describe, expect, it } from "vitest";

import { EnvError, parseEnv } from "./env.server";

describe("parseEnv", () => {
  it("fills in the documented defaults", () => {
    expect(parseEnv({})).toEqual({
      nodeEnv: "development",
      port: 3000,
      host: "127.0.0.1",
      databaseUrl: undefined,
      dataDir: "./data",
      siteUrl: "http://localhost:3000",
      ownerPassword: undefined,
      ownerEmail: undefined,
      smtpUrl: undefined,
      resendApiKey: undefined,
      resendApiUrl: "https://api.resend.com/emails",
      mailFrom: undefined,
      seedDemo: true,
      contactRateLimit: 5,
      newsletterRate: 60,
      pageCache: true,
      pageCacheBytes: 64 * 1024 * 1024,
      pageCacheHeader: true,
      trustProxy: [],
      backupDir: undefined,
      backupKeep: 7,
      mediaCacheBytes: 256 * 1024 * 1024,
      fetchAllowPrivate: false,
      cdnPurge: null,
    });
  });

  it("sends CDN purges only with both CDN_PURGE_URL and a long enough CDN_PURGE_SECRET", () => {
    const secret = "0123456789abcdef";
    expect(
      parseEnv({ CDN_PURGE_URL: "http://127.0.0.1:8080/purge", CDN_PURGE_SECRET: secret }).cdnPurge,
    ).toEqual({ url: "http://127.0.0.1:8080/purge", secret });
    expect(() => parseEnv({ CDN_PURGE_URL: "http://cdn.example/purge" })).toThrow(
      "CDN_PURGE_SECRET: expected with CDN_PURGE_URL",
    );
    expect(() => parseEnv({ CDN_PURGE_SECRET: secret })).toThrow("CDN_PURGE_SECRET");
    expect(() =>
      parseEnv({ CDN_PURGE_URL: "http://cdn.example/purge", CDN_PURGE_SECRET: "short" }),
    ).toThrow("CDN_PURGE_SECRET: expected at least 16 characters (got a value that is not shown)");
    expect(() =>
      parseEnv({ CDN_PURGE_URL: "ftp://cdn.example/purge", CDN_PURGE_SECRET: secret }),
    ).toThrow("CDN_PURGE_URL: expected an http:// or https:// URL");
  });

  it("lets outgoing fetches reach private addresses only when FETCH_ALLOW_PRIVATE says so", () => {
    expect(parseEnv({ FETCH_ALLOW_PRIVATE: "true" }).fetchAllowPrivate).toBe(true);
    expect(parseEnv({ FETCH_ALLOW_PRIVATE: "false" }).fetchAllowPrivate).toBe(false);
    expect(() => parseEnv({ FETCH_ALLOW_PRIVATE: "maybe" })).toThrow("FETCH_ALLOW_PRIVATE");
  });

  it("bounds the local copies of uploads in megabytes, 0 keeping none", () => {
    expect(parseEnv({ MEDIA_CACHE_MB: "0" }).mediaCacheBytes).toBe(0);
    expect(parseEnv({ MEDIA_CACHE_MB: "10" }).mediaCacheBytes).toBe(10 * 1024 * 1024);
  });

  it("paces the newsletter in messages per minute, at least one", () => {
    expect(parseEnv({ NEWSLETTER_RATE: "600" }).newsletterRate).toBe(600);
    expect(() => parseEnv({ NEWSLETTER_RATE: "0" })).toThrow(
      /NEWSLETTER_RATE: expected at least 1/,
    );
    expect(() => parseEnv({ NEWSLETTER_RATE: "2.5" })).toThrow(/NEWSLETTER_RATE/);
  });

  it("listens on every address in production", () => {
    expect(parseEnv({ NODE_ENV: "production" }).host).toBe("0.0.0.0");
    expect(parseEnv({ NODE_ENV: "production", HOST: "127.0.0.1" }).host).toBe("127.0.0.1");
  });

  it("derives SITE_URL from PORT and drops a trailing slash", () => {
    expect(parseEnv({ PORT: "8080" }).siteUrl).toBe("http://localhost:8080");
    expect(parseEnv({ SITE_URL: "https://example.com/" }).siteUrl).toBe("https://example.com");
  });

  it("seeds demo content by default only on the embedded database", () => {
    expect(parseEnv({}).seedDemo).toBe(true);
    expect(parseEnv({ SEED_DEMO: "false" }).seedDemo).toBe(false);
    expect(parseEnv({ DATABASE_URL: "postgres://u@h/db" }).seedDemo).toBe(false);
    expect(parseEnv({ DATABASE_URL: "postgresql://u@h/db", SEED_DEMO: "true" }).seedDemo).toBe(
      true,
    );
  });

  it("treats an empty value as unset", () => {
    expect(parseEnv({ PORT: "", DATABASE_URL: " " })).toMatchObject({
      port: 3000,
      databaseUrl: undefined,
    });
  });

  it.each([
    ["PORT", "abc"],
    ["PORT", "70000"],
    ["PORT", "30.5"],
    ["DATABASE_URL", "mysql://u@h/db"],
    ["DATABASE_URL", "not a url"],
    ["SITE_URL", "ftp://example.com"],
    ["SMTP_URL", "http://mail.example.com"],
    ["OWNER_EMAIL", "not-an-email"],
    ["SEED_DEMO", "maybe"],
    ["MEDIA_CACHE_MB", "-1"],
    ["MEDIA_CACHE_MB", "1.5"],
    ["NODE_ENV", "staging"],
  ])("stops on a wrong %s (%s) with a message naming it", (name, value) => {
    expect(() => parseEnv({ [name]: value })).toThrow(EnvError);
    expect(() => parseEnv({ [name]: value })).toThrow(new RegExp(`${name}: .*got "${value}"`));
  });

  it("never shows a secret it refuses", () => {
    const message = (source: Record<string, string>) => {
      try {
        parseEnv(source);
      } catch (error) {
        return (error as Error).message;
      }
      throw new Error("expected parseEnv to throw");
    };
    expect(message({ OWNER_PASSWORD: "hunter2" })).not.toContain("hunter2");
    expect(message({ OWNER_PASSWORD: "hunter2" })).toMatch(/OWNER_PASSWORD: .*not shown/);
    const url = message({ DATABASE_URL: "mysql://admin:s3cret@db.example.com/site" });
    expect(url).not.toContain("s3cret");
    expect(url).toContain('"mysql://admin:***@db.example.com/site"');
    expect(message({ SMTP_URL: "http://mailer:p4ss@mail.example.com" })).not.toContain("p4ss");
    // Malformed URLs keep their secrets too: an @ in the password, a missing "//", no host.
    for (const [name, value, secret] of [
      ["DATABASE_URL", "postgres//admin:s3cret@db.example.com/site", "s3cret"],
      ["DATABASE_URL", "mysql://admin:pa@ss@db.example.com/site", "pa@ss"],
      ["SITE_URL", "ftp://user:s3cret@files.example.com", "s3cret"],
      ["SMTP_URL", "smtp//mailer:p4ss@mail.example.com", "p4ss"],
      ["SITE_URL", "https://user:s3cret@", "s3cret"],
    ] as const) {
      const text = message({ [name]: value });
      expect(text, value).toContain(`${name}: `);
      expect(text, value).not.toContain(secret);
    }
    expect(message({ DATABASE_URL: "mysql://admin:pa@ss@db.example.com/site" })).toContain(
      '(got "mysql://admin:***@db.example.com/site")',
    );
  });

  it("says how the page cache answered outside production only, unless told", () => {
    expect(parseEnv({ NODE_ENV: "production" }).pageCacheHeader).toBe(false);
    expect(parseEnv({ NODE_ENV: "production", PAGE_CACHE_HEADER: "true" }).pageCacheHeader).toBe(
      true,
    );
    expect(parseEnv({ NODE_ENV: "development" }).pageCacheHeader).toBe(true);
    expect(parseEnv({ PAGE_CACHE_HEADER: "false" }).pageCacheHeader).toBe(false);
  });

  it("names every wrong variable at once", () => {
    expect(() => parseEnv({ PORT: "x", SITE_URL: "y" })).toThrow(/PORT: [\s\S]*SITE_URL: /);
  });
});

import { expect, expectScrollY, hydrated, settledScrollY, test } from "./fixtures";

test.describe("the home page", () => {
  test("renders every section from the server, with one h1 and landmarks", async ({ page }) => {
    await page.goto("/");
    await expect(page.locator("h1")).toHaveCount(1);
    await expect(page.locator("h1")).toHaveText("Alex Byrne");
    await expect(page.getByRole("banner")).toBeVisible();
    await expect(page.getByRole("main")).toBeVisible();
    await expect(page.getByRole("contentinfo")).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Main" })).toBeVisible();

    for (const id of ["summary", "skills", "experience", "education", "tools", "contact"]) {
      await expect(page.locator(`section#${id}`)).toHaveCount(1);
    }
    await expect(page.getByRole("heading", { name: "About Me" })).toBeVisible();
    await expect(page.getByText("Backend Developer", { exact: true })).toBeVisible();
    await expect(page.getByText("Dublin, Ireland", { exact: true })).toBeVisible();
    await expect(page.locator("#summary")).toContainText("over five years");

    const skills = page.getByTestId("skills-grid").getByRole("listitem");
    await expect(skills).toHaveText([
      "Backend Development",
      "Database Management",
      "Cloud Services",
      "Version Control",
    ]);
    await expect(skills.locator("svg")).toHaveCount(4);
    const tools = page.getByTestId("tools-grid").getByRole("listitem");
    await expect(tools.locator("span")).toHaveText(["Node.js", "Ruby", "Python", "Docker", "AWS"]);
    await expect(tools.locator("svg")).toHaveCount(5);

    const experience = page.locator("#experience li");
    await expect(experience.locator("h3")).toHaveText([
      "Senior Backend Developer at Liffey Systems",
      "Backend Developer at Harbour Payments",
      "Junior Software Developer at Grand Canal Labs",
    ]);
    await expect(experience.first()).toContainText("Mar 2023 - Present");
    await expect(experience.nth(1)).toContainText("Jan 2021 - Feb 2023");
    await expect(page.locator("#education li h3")).toHaveText([
      "MSc in Data Analytics at Dublin City College",
      "BSc in Computer Science at Technological University of the Midlands",
    ]);
    await expect(page.locator("#education li").first()).toContainText("Sep 2024 - Present");

    await expect(page.getByRole("heading", { name: "Contact" })).toBeVisible();
    await expect(page.getByLabel("Your Name")).toBeVisible();
    await expect(page.getByLabel("Your Email")).toBeVisible();
    await expect(page.getByLabel("Your Message")).toBeVisible();
    await expect(page.getByRole("button", { name: "Send Message" })).toBeVisible();
    await expect(page.getByText("Or contact me through")).toBeVisible();
    const contactLinks = page.getByTestId("contact-links").getByRole("link");
    await expect(contactLinks).toHaveCount(3);
    await expect(contactLinks.nth(0)).toHaveAccessibleName("alex.byrne@example.com");
    await expect(contactLinks.nth(0)).toHaveAttribute("href", "mailto:alex.byrne@example.com");
    await expect(contactLinks.nth(1)).toHaveAccessibleName("GitHub");
    await expect(contactLinks.nth(1)).toHaveAttribute("href", /github\.com/);
    await expect(contactLinks.nth(2)).toHaveAccessibleName("LinkedIn");
    await expect(contactLinks.nth(2)).toHaveAttribute("href", /linkedin\.com/);
  });

  test("is complete in the first response: no loading text, even without JavaScript", async ({
    browser,
    request,
  }) => {
    const html = await (await request.get("/")).text();
    expect(html).toContain("Senior Backend Developer at Liffey Systems");
    expect(html).toContain("MSc in Data Analytics at Dublin City College");
    expect(html).not.toContain("Loading experiences...");
    expect(html).not.toContain("Loading education...");

    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto("/");
    await expect(page.locator("#experience li")).toHaveCount(3);
    await expect(page.locator("#education li")).toHaveCount(2);
    await context.close();
  });

  test("shows the profile photo with alt text and fixed dimensions, and a working CV link", async ({
    page,
    request,
  }) => {
    await page.goto("/");
    const photo = page.getByRole("img", { name: "Portrait of Alex Byrne" });
    await expect(photo).toHaveAttribute("width", "160");
    await expect(photo).toHaveAttribute("height", "160");
    expect(
      await photo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0),
    ).toBe(true);
    expect(await photo.evaluate((img) => getComputedStyle(img).borderRadius)).not.toBe("0px");

    const cv = page.getByRole("link", { name: "Download CV" });
    const href = await cv.getAttribute("href");
    expect(href).toBe("/cv.pdf");
    const pdf = await request.get(href!);
    expect(pdf.status()).toBe(200);
    expect(pdf.headers()["content-type"]).toContain("application/pdf");
    expect((await pdf.body()).subarray(0, 5).toString()).toBe("%PDF-");
  });

  test("opens the microblogging and photo-sharing profiles in a new tab, safely", async ({
    page,
  }) => {
    await page.goto("/");
    const social = page.getByRole("navigation", { name: "Social links" }).getByRole("link");
    await expect(social).toHaveCount(2);
    for (const link of await social.all()) {
      await expect(link).toHaveAttribute("target", "_blank");
      await expect(link).toHaveAttribute("rel", "noopener noreferrer");
      await expect(link).toHaveAccessibleName(/opens in a new tab/);
    }
    await expect(social.first()).toHaveAttribute("href", /x\.com/);
    await expect(social.nth(1)).toHaveAttribute("href", /instagram\.com/);
  });

  test("carries its title, canonical URL, share tags and a Person in JSON-LD", async ({
    page,
    baseURL,
    request,
  }) => {
    // The home page's share card is drawn by a job after the server's first start.
    test.setTimeout(60_000);
    const CARD = new RegExp(`^${baseURL}/media/[0-9a-f]{64}\\.png$`);
    await expect
      .poll(
        async () =>
          /property="og:image" content="([^"]+)"/.exec(await (await request.get("/")).text())?.[1],
        { timeout: 40_000 },
      )
      .toMatch(CARD);
    await page.goto("/");
    await expect(page).toHaveTitle("Alex Byrne · Backend Developer");
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", `${baseURL}/`);
    await expect(page.locator('meta[name="description"]')).toHaveAttribute(
      "content",
      "Alex Byrne, Backend Developer in Dublin, Ireland.",
    );
    await expect(page.locator('meta[property="og:type"]')).toHaveAttribute("content", "website");
    await expect(page.locator('meta[property="og:url"]')).toHaveAttribute("content", `${baseURL}/`);
    await expect(page.locator('meta[property="og:image"]')).toHaveAttribute("content", CARD);
    await expect(page.locator('meta[property="og:image:width"]')).toHaveAttribute(
      "content",
      "1200",
    );
    await expect(page.locator('meta[property="og:image:height"]')).toHaveAttribute(
      "content",
      "630",
    );
    await expect(page.locator('meta[property="og:image:alt"]')).toHaveAttribute(
      "content",
      "Alex Byrne, Backend Developer",
    );
    await expect(page.locator('meta[name="twitter:card"]')).toHaveAttribute(
      "content",
      "summary_large_image",
    );
    const ld = JSON.parse(
      (await page.locator('script[type="application/ld+json"]').textContent())!,
    );
    expect(ld).toMatchObject({
      "@type": "Person",
      name: "Alex Byrne",
      jobTitle: "Backend Developer",
      address: { addressLocality: "Dublin, Ireland" },
      // The photo (the placeholder, none being uploaded), not the card.
      image: `${baseURL}/images/profile.svg`,
    });
    expect(ld.sameAs).toHaveLength(4);
  });

  test("serves hashed assets with immutable caching and compresses pages", async ({ request }) => {
    const page = await request.get("/", { headers: { "accept-encoding": "gzip" } });
    expect(page.headers()["content-encoding"]).toBe("gzip");
    const html = await page.text();
    // The home page loads no script file (app/route-policy.ts): its stylesheet is hashed too.
    const asset = html.match(/\/assets\/[\w.-]+\.css/)?.[0];
    expect(asset).toBeTruthy();
    const response = await request.get(asset!);
    expect(response.status()).toBe(200);
    expect(response.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");
  });
});

test.describe("scrolling", () => {
  test("Back to top appears only past 300 px and scrolls smoothly to the top", async ({ page }) => {
    await page.goto("/");
    await hydrated(page);
    const button = page.getByRole("button", { name: "Back to top" });
    await page.evaluate(() => window.scrollTo(0, 300));
    await page.waitForTimeout(100);
    await expect(button).toHaveCount(0);
    await page.evaluate(() => window.scrollTo(0, 301));
    await expect(button).toBeVisible();
    await expect(button).toHaveCSS("position", "fixed");
    const box = await button.boundingBox();
    const viewport = page.viewportSize()!;
    expect(box!.x + box!.width).toBeGreaterThan(viewport.width - 40);
    expect(box!.y + box!.height).toBeGreaterThan(viewport.height - 40);

    await page.evaluate(() => window.scrollTo(0, 2000));
    // Smooth: shortly after the click the page is on its way, not already at the top.
    const midway = await page.evaluate(async () => {
      const start = window.scrollY;
      (document.querySelector('[aria-label="Back to top"]') as HTMLButtonElement).click();
      await new Promise((r) => setTimeout(r, 30));
      return { start, now: window.scrollY };
    });
    expect(midway.now).toBeGreaterThan(0);
    expect(midway.now).toBeLessThanOrEqual(midway.start);
    await expectScrollY(page, 0);
    await expect(button).toHaveCount(0);
  });

  test("About Me scrolls to the top about 100 ms after the click, not before", async ({ page }) => {
    await page.goto("/");
    await hydrated(page);
    await page.evaluate(() => window.scrollTo(0, 1500));
    const samples = await page.evaluate(async () => {
      const button = [...document.querySelectorAll("header button")].find(
        (b) => b.textContent === "About Me",
      ) as HTMLButtonElement;
      button.click();
      const at = (ms: number) =>
        new Promise<number>((r) => setTimeout(() => r(window.scrollY), ms));
      const early = await at(60);
      return { early };
    });
    expect(samples.early).toBe(1500);
    await expectScrollY(page, 0);
    await expect(page).toHaveURL(/\/$/);
  });

  test("About Me from another page goes home and lands at the top", async ({ page }) => {
    await page.goto("/__test/toast"); // any other page with the header
    await hydrated(page);
    const documents: string[] = [];
    page.on("request", (r) => {
      if (r.resourceType() === "document") documents.push(r.url());
    });
    await page.getByRole("button", { name: "About Me" }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.locator("h1")).toHaveText("Alex Byrne");
    await expectScrollY(page, 0);
    // A client-side navigation: the timelines stream in after the page shows.
    expect(documents).toEqual([]);
    await expect(page.locator("#experience li")).toHaveCount(3);
    await expect(page.locator("#education li")).toHaveCount(2);
    await expect(page.getByText("Loading experiences...")).toHaveCount(0);
  });

  test("section buttons scroll smoothly to their sections, below the fixed header", async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto("/");
    await hydrated(page);
    for (const [label, id] of [
      ["Tools", "tools"],
      ["Experience", "experience"],
      ["Contact", "contact"],
      ["Summary", "summary"],
    ] as const) {
      await page
        .getByRole("navigation", { name: "Main" })
        .getByRole("button", { name: label, exact: true })
        .click();
      await settledScrollY(page);
      await expect(page).toHaveURL(new RegExp(`#${id}$`));
      const top = await page.locator(`#${id}`).evaluate((el) => el.getBoundingClientRect().top);
      const headerBottom = await page
        .getByRole("banner")
        .evaluate((el) => el.getBoundingClientRect().bottom);
      // At its anchor (or as far as the page can scroll), never hidden under the header.
      const atBottom = await page.evaluate(
        () =>
          Math.ceil(window.scrollY + window.innerHeight) >= document.documentElement.scrollHeight,
      );
      expect(top).toBeGreaterThanOrEqual(headerBottom - 1);
      if (!atBottom) expect(top).toBeLessThan(headerBottom + 40);
    }
  });

  test("with reduced motion the scroll is instant", async ({ browser }) => {
    const context = await browser.newContext({ reducedMotion: "reduce" });
    const page = await context.newPage();
    await page.goto("/");
    await hydrated(page);
    await page.evaluate(() => window.scrollTo(0, 2000));
    await expect(page.getByRole("button", { name: "Back to top" })).toBeVisible();
    const after = await page.evaluate(async () => {
      (document.querySelector('[aria-label="Back to top"]') as HTMLButtonElement).click();
      return window.scrollY;
    });
    expect(after).toBe(0);
    await context.close();
  });
});

import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import { loader } from "../../app/routes/home";
import type { Route } from "../../app/routes/+types/home";
import { demoContent } from "../../content/demo";
import { seedDemoContent } from "../../database/seed.server";
import { freshPglite, routeContext, type TestDatabase } from "./databases";

function callLoader(database: TestDatabase, headers: Record<string, string> = {}) {
  const context = routeContext(database);
  const request = new Request("http://localhost/", { headers });
  return loader({ request, context, params: {} } as unknown as Route.LoaderArgs);
}

describe("the home page loader", () => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await freshPglite();
    await seedDemoContent(database.db, demoContent);
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await database.dispose();
  });

  it("hands a document both timelines already resolved, in the original's wording", async () => {
    const data = await callLoader(database);
    expect(Array.isArray(data.experiences)).toBe(true);
    expect(data.experiences).toEqual([
      {
        id: 1,
        heading: "Senior Backend Developer at Liffey Systems",
        from: "Mar 2023",
        to: null,
        current: true,
      },
      {
        id: 2,
        heading: "Backend Developer at Harbour Payments",
        from: "Jan 2021",
        to: "Feb 2023",
        current: false,
      },
      {
        id: 3,
        heading: "Junior Software Developer at Grand Canal Labs",
        from: "Jun 2019",
        to: "Dec 2020",
        current: false,
      },
    ]);
    expect(data.education).toHaveLength(2);
    expect(Array.isArray(data.education) && data.education[0]?.heading).toBe(
      "MSc in Data Analytics at Dublin City College",
    );
  });

  it("streams both timelines to a client-side navigation", async () => {
    const data = await callLoader(database, { "sec-fetch-dest": "empty" });
    expect(data.experiences).toBeInstanceOf(Promise);
    expect(data.education).toBeInstanceOf(Promise);
    expect(await data.experiences).toHaveLength(3);
  });

  it("shows empty lists and logs the original's texts when the reads fail", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    await database.db.execute("drop table job_experiences");
    await database.db.execute("drop table education");
    const data = await callLoader(database);
    expect(data.experiences).toEqual([]);
    expect(data.education).toEqual([]);
    const labels = logged.mock.calls.map((call) => call[0]);
    expect(labels).toContain("Error fetching experiences:");
    expect(labels).toContain("Error fetching education:");
    const experienceCall = logged.mock.calls.find(
      (call) => call[0] === "Error fetching experiences:",
    );
    expect(String(experienceCall?.[1])).toMatch(/job_experiences/);
  });
});

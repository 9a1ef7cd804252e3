import { describe, expect, it } from "vitest";

import { socialKindFor, toolIconFor } from "./icon-set";
import {
  fieldErrors,
  formatPartialDate,
  profileSchema,
  PROFILE_LIMITS,
  PROFILE_TEXT,
  RESUME_IMPORT_MAX_BYTES,
  RESUME_TEXT,
} from "./profile";
import { ENTRY_SCHEMAS } from "./timeline/entry-schema";

const experienceSchema = ENTRY_SCHEMAS.experience;
const educationSchema = ENTRY_SCHEMAS.education;

const job = { title: "Dev", company: "Acme", from: "2021-01", to: "2023-02", current: false };

describe("an experience entry", () => {
  it("keeps a valid entry, trimmed, and drops To when it is the current job", () => {
    expect(experienceSchema.parse({ ...job, title: "  Dev " })).toEqual(job);
    expect(experienceSchema.parse({ ...job, current: true })).toEqual({
      ...job,
      to: null,
      current: true,
    });
  });

  it.each([
    [{ title: " " }, "title", `Title ${PROFILE_TEXT.required}`],
    [{ company: "" }, "company", `Company ${PROFILE_TEXT.required}`],
    [{ from: "" }, "from", `From ${PROFILE_TEXT.required}`],
    [{ from: "March 2023" }, "from", PROFILE_TEXT.invalidDate],
    [{ from: "2023-13" }, "from", PROFILE_TEXT.invalidDate],
    [{ to: "" }, "to", PROFILE_TEXT.toOrCurrent],
    [{ to: "2020-12" }, "to", `To ${PROFILE_TEXT.toBeforeFrom}`],
    [
      { title: "x".repeat(PROFILE_LIMITS.shortText + 1) },
      "title",
      "Title must be at most 120 characters.",
    ],
    [{ company: "a\0b" }, "company", `Company ${PROFILE_TEXT.nullCharacter}`],
  ])("refuses %j, naming the field %s", (change, field, message) => {
    const result = experienceSchema.safeParse({ ...job, ...change });
    expect(result.success).toBe(false);
    if (!result.success) expect(fieldErrors(result.error)[field]).toBe(message);
  });

  it("compares dates at the precision both have", () => {
    expect(experienceSchema.safeParse({ ...job, from: "2023-05", to: "2023" }).success).toBe(true);
    expect(experienceSchema.safeParse({ ...job, from: "2023-05-20", to: "2023-05" }).success).toBe(
      true,
    );
  });

  it("applies the same rules to education", () => {
    const study = {
      degree: "BSc",
      institution: "TU",
      from: "2015",
      to: "",
      current: false,
    };
    const result = educationSchema.safeParse(study);
    expect(result.success).toBe(false);
    expect(educationSchema.parse({ ...study, current: true }).to).toBeNull();
  });
});

describe("the profile", () => {
  const profile = {
    name: "Jo",
    title: "Dev",
    location: "Cork",
    email: "jo@example.com",
    about: ["Hi."],
    socials: [{ kind: "website", label: "Site", url: "https://jo.example" }],
    skills: [{ name: "APIs", icon: "server" }],
    tools: [{ name: "Go", icon: "go" }],
  };

  it("accepts a valid profile", () => {
    expect(profileSchema.parse(profile)).toEqual(profile);
  });

  it.each([
    [{ email: "not an email" }, "email", PROFILE_TEXT.invalidEmail],
    [{ about: [] }, "about", `About ${PROFILE_TEXT.required}`],
    [
      { socials: [{ kind: "website", label: "Evil", url: "javascript:alert(1)" }] },
      "socials.0.url",
      PROFILE_TEXT.invalidUrl,
    ],
    [
      { socials: [{ kind: "myspace", label: "M", url: "https://m.example" }] },
      "socials.0.kind",
      PROFILE_TEXT.invalidIcon,
    ],
    [{ skills: [{ name: "X", icon: "rocket" }] }, "skills.0.icon", PROFILE_TEXT.invalidIcon],
    [{ tools: [{ name: "", icon: "go" }] }, "tools.0.name", `Tool ${PROFILE_TEXT.required}`],
    [
      {
        tools: Array.from({ length: PROFILE_LIMITS.tools + 1 }, () => ({ name: "Go", icon: "go" })),
      },
      "tools",
      "At most 40 tools.",
    ],
  ])("refuses %j at %s", (change, field, message) => {
    const result = profileSchema.safeParse({ ...profile, ...change });
    expect(result.success).toBe(false);
    if (!result.success) expect(fieldErrors(result.error)[field]).toBe(message);
  });
});

describe("dates and icons", () => {
  it("shows stored dates as the original did", () => {
    expect(formatPartialDate("2023-03")).toBe("Mar 2023");
    expect(formatPartialDate("2013-12-01")).toBe("Dec 2013");
    expect(formatPartialDate("2019")).toBe("2019");
    expect(formatPartialDate("Summer 2019")).toBe("Summer 2019");
  });

  it("finds a tool's mark by its name, or draws its initials", () => {
    expect(toolIconFor("Node.js")).toBe("nodejs");
    expect(toolIconFor("postgres")).toBe("postgresql");
    expect(toolIconFor("Ruby on Rails")).toBe("rails");
    expect(toolIconFor("Apache Spark")).toBe("initials");
  });

  it("finds a link's kind by its address, then its network's name", () => {
    expect(socialKindFor("Code", "https://github.com/jo")).toBe("code-hosting");
    expect(socialKindFor("Twitter", "https://www.twitter.com")).toBe("microblogging");
    expect(socialKindFor("LinkedIn", "not a url")).toBe("professional-network");
    expect(socialKindFor("SoundCloud", "https://soundcloud.example.com/x")).toBe("website");
  });

  it("states the import's size limit from its constant", () => {
    expect(RESUME_IMPORT_MAX_BYTES).toBe(1_000_000);
    expect(RESUME_TEXT.tooLarge).toContain("1 MB");
  });
});

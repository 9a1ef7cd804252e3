import { data } from "react-router";

import { appContext } from "~/context";
import { Contact, SocialLinks } from "~/features/contact";
import { handleContact } from "~/features/contact/index.server";
import { Profile, Skills, Timeline, Tools } from "~/features/profile";
import { homeProfile, readTimeline } from "~/features/profile/index.server";
import { absoluteUrl, pageMeta, siteOf } from "~/features/site";
import { activityPubLink, socialUrls } from "~/features/social";
import { readProfile } from "~/features/site/index.server";
import { subscribeFormHtml } from "~/features/subscribers/index.server";
import { isClientNavigation } from "~/lib/streaming";

import type { Route } from "./+types/home";

export async function loader({ context, request }: Route.LoaderArgs) {
  const { db, degraded } = context.get(appContext);
  // Every read starts at once: while the database hangs, the page waits for one timeout, not three.
  const profileRead = readProfile(db, degraded);
  // A client-side navigation shows the page at once, with "Loading experiences..." in these two
  // sections until their rows stream in; a document arrives with both already filled in.
  const experiences = readTimeline(db, "experience", degraded);
  const education = readTimeline(db, "education", degraded);
  const profile = homeProfile(await profileRead);
  // The subscription form as HTML (its markup is shared with the pages that render it as such).
  const subscribeForm = subscribeFormHtml();
  if (isClientNavigation(request)) return { profile, experiences, education, subscribeForm };
  return {
    profile,
    experiences: await experiences,
    education: await education,
    subscribeForm,
  };
}

/** The contact form without JavaScript: a plain POST, answered with the page and the toast. */
export async function action({ request, context }: Route.ActionArgs) {
  const { status, body, fields, headers } = await handleContact(request, context);
  return data({ outcome: body, fields }, { status, headers });
}

/** A document POST carries the action's headers (Retry-After on 429) only through this. */
export function headers({ actionHeaders }: Route.HeadersArgs) {
  return actionHeaders;
}

export function meta({ matches, loaderData }: Route.MetaArgs) {
  const site = siteOf(matches);
  const siteUrl = matches[0].loaderData.siteUrl;
  return pageMeta({
    site,
    siteUrl,
    path: "/",
    title: `${site.name} · ${site.title}`,
    description: site.description,
    share: { type: "website", image: site.shareCard },
    jsonLd: {
      "@context": "https://schema.org",
      "@type": "Person",
      name: site.name,
      jobTitle: site.title,
      url: `${siteUrl}/`,
      email: `mailto:${site.email}`,
      image: absoluteUrl(siteUrl, site.shareImage),
      address: { "@type": "PostalAddress", addressLocality: site.location },
      sameAs: loaderData?.profile.socials.map((s) => s.url) ?? [],
    },
  }).concat(
    {
      tagName: "link",
      rel: "alternate",
      type: "application/json",
      title: "JSON Resume",
      href: "/resume.json",
    },
    activityPubLink(socialUrls(siteUrl).actor),
  );
}

export default function Home({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <>
      <Profile profile={loaderData.profile} />
      <Skills skills={loaderData.profile.skills} />
      <Timeline
        id="experience"
        title="Experience"
        loadingText="Loading experiences..."
        entries={loaderData.experiences}
      />
      <Timeline
        id="education"
        title="Education"
        loadingText="Loading education..."
        entries={loaderData.education}
      />
      <Tools tools={loaderData.profile.tools} />
      <Contact
        key={actionData ? JSON.stringify(actionData) : "form"}
        initial={actionData}
        site={loaderData.profile}
      />
      <div dangerouslySetInnerHTML={{ __html: loaderData.subscribeForm }} />
      <SocialLinks socials={loaderData.profile.socials} />
    </>
  );
}

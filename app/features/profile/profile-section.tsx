import { Download, MapPin } from "lucide-react";

import { PHOTO_SIZE, type HomeProfile } from "~/features/site";

import { Section } from "~/ui/section";
import { buttonClass } from "~/ui/button";

/**
 * Profile card and About me, under id `summary`. The name is the page's one h1. The whole is the
 * owner's h-card (microformats2: name, photo, url, note), for Webmention and IndieWeb readers.
 */
export function Profile({ profile: site }: { profile: HomeProfile }) {
  return (
    <div className="h-card grid gap-8 pt-8 md:grid-cols-[auto_1fr] md:items-start">
      <div className="flex flex-col items-center rounded-2xl border border-slate-200 bg-white p-6 text-center shadow-sm dark:border-slate-800 dark:bg-slate-900">
        <img
          src={site.photo.src}
          srcSet={site.photo.srcSet}
          sizes={site.photo.sizes}
          alt={site.photo.alt}
          width={PHOTO_SIZE}
          height={PHOTO_SIZE}
          fetchPriority="high"
          className="u-photo size-40 rounded-full object-cover"
        />
        <data className="u-url u-uid" value="/" />
        <h1 className="p-name mt-4 text-2xl font-bold text-slate-900 dark:text-white">
          {site.name}
        </h1>
        <p className="p-job-title text-lg text-sky-800 dark:text-sky-300">{site.title}</p>
        <p className="mt-1 flex items-center gap-1 text-slate-600 dark:text-slate-400">
          <MapPin aria-hidden="true" className="size-4" />
          {site.location}
        </p>
        <a
          href={site.cvUrl}
          target="_blank"
          rel="noopener"
          className={buttonClass({ className: "mt-4" })}
        >
          <Download aria-hidden="true" className="size-4" />
          Download CV
        </a>
        <a
          href="/resume.json"
          type="application/json"
          className="mt-2 text-sm text-sky-800 underline-offset-2 hover:underline dark:text-sky-300"
        >
          JSON Resume
        </a>
      </div>
      <Section id="summary" title="About Me">
        <div className="p-note space-y-4 text-lg leading-relaxed text-slate-700 dark:text-slate-300">
          {site.about.map((paragraph, i) => (
            <p key={i}>{paragraph}</p>
          ))}
        </div>
      </Section>
    </div>
  );
}

import { hostOf, POST_LINK_TEXT } from "../post-links";

/**
 * "Also on dev.to": the post's copies elsewhere, marked `u-syndication` for the h-entry they sit
 * in (microformats2), so IndieWeb readers and Webmention receivers find them.
 */
export function SyndicationLinks({ urls }: { urls: readonly string[] }) {
  if (urls.length === 0) return null;
  return (
    <ul aria-label="Copies elsewhere" className="mt-4 flex flex-wrap gap-x-4 gap-y-1 text-sm">
      {urls.map((url) => (
        <li key={url}>
          <a
            href={url}
            rel="syndication noopener"
            className="u-syndication text-sky-800 underline hover:no-underline dark:text-sky-300"
          >
            {POST_LINK_TEXT.alsoOn(hostOf(url))}
          </a>
        </li>
      ))}
    </ul>
  );
}

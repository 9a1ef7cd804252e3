/**
 * A post as a newsletter mail: the stored post HTML (sanitized, code already coloured by
 * app/features/posts/highlight.server.ts) with this site's reading styles written into each
 * element (mail clients drop style sheets), every link and image made absolute, and a plain-text
 * part read from the same HTML. No tracking pixel, no rewritten links: each link goes where the
 * post says. Rendered once per post; each recipient's copy differs only in the unsubscribe link.
 */
import { escapeHtml, type Mail } from "~/features/contact/index.server";
import { postPath } from "~/features/posts";

/** The styles each element gets, the reader's look in a mail client's terms. */
const STYLES: Record<string, string> = {
  h1: "font-size:28px;line-height:1.25;margin:32px 0 16px;color:#1f2328",
  h2: "font-size:22px;line-height:1.3;margin:28px 0 12px;color:#1f2328",
  h3: "font-size:18px;line-height:1.35;margin:24px 0 8px;color:#1f2328",
  p: "margin:0 0 16px",
  a: "color:#0969da;text-decoration:underline",
  ul: "margin:0 0 16px;padding-left:24px",
  ol: "margin:0 0 16px;padding-left:24px",
  li: "margin:0 0 4px",
  blockquote: "margin:0 0 16px;padding:0 16px;border-left:4px solid #d0d7de;color:#57606a",
  img: "max-width:100%;height:auto;border:0",
  table: "border-collapse:collapse;margin:0 0 16px",
  th: "border:1px solid #d0d7de;padding:6px 12px;text-align:left;background-color:#f6f8fa",
  td: "border:1px solid #d0d7de;padding:6px 12px",
  hr: "border:0;border-top:1px solid #d0d7de;margin:24px 0",
  code: "font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:85%;background-color:#eff1f3;padding:2px 4px;border-radius:4px",
};
const PRE_STYLE =
  "font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:14px;line-height:1.45;padding:16px;overflow:auto;border-radius:6px;border:1px solid #d0d7de;margin:0 0 16px;white-space:pre";
/** Code inside a block keeps the block's font and no frame of its own. */
const BLOCK_CODE_STYLE = "font-family:inherit;font-size:inherit";
const BODY_STYLE =
  "max-width:640px;margin:0 auto;padding:24px 16px;font-family:-apple-system,BlinkMacSystemFont,'Segoe UI',Helvetica,Arial,sans-serif;font-size:16px;line-height:1.6;color:#1f2328;background-color:#ffffff";
const FOOTER_STYLE =
  "margin-top:40px;padding-top:16px;border-top:1px solid #d0d7de;font-size:13px;color:#57606a";

/** The placeholder each recipient's copy replaces with their own unsubscribe link. */
const UNSUBSCRIBE = "\u0000unsubscribe\u0000";

/** What the mail is made from: the post's stored fields and the site. */
export type NewsletterPost = {
  id: number;
  title: string;
  description: string | null;
  slug: string;
  content: string;
  publishedAt: Date | null;
};
export type NewsletterSite = { url: string; name: string; from: string };

/** A post's mail before a recipient is named. */
export type RenderedNewsletter = { subject: string; html: string; text: string; postUrl: string };

/** Drops the dark theme's custom properties (`--shiki-dark`): mail clients may drop the whole style. */
const mailSafeStyle = (style: string) =>
  style
    .split(";")
    .map((d) => d.trim())
    .filter((d) => d !== "" && !d.startsWith("--"))
    .join(";");

/** Gives an opening tag its style: the element's own first (a code token's colour), then ours. */
function styled(tag: string, attributes: string, style: string): string {
  const own = /\sstyle="([^"]*)"/.exec(attributes)?.[1];
  const rest = attributes
    .replace(/\sstyle="[^"]*"/, "")
    .replace(/\s(?:class|tabindex)="[^"]*"/g, "");
  const merged = [own ? mailSafeStyle(own) : "", style].filter(Boolean).join(";");
  return `<${tag}${rest}${merged ? ` style="${merged}"` : ""}>`;
}

/** Site-relative addresses made absolute; srcset and sizes dropped (mail clients ignore them). */
function absoluteUrls(html: string, siteUrl: string, postUrl: string): string {
  return html
    .replace(/\s(?:srcset|sizes)="[^"]*"/g, "")
    .replace(/\s(src|href)="([^"]*)"/g, (_m, name: string, value: string) => {
      if (value.startsWith("#")) return ` ${name}="${postUrl}${value}"`;
      if (value.startsWith("/") && !value.startsWith("//")) return ` ${name}="${siteUrl}${value}"`;
      return ` ${name}="${value}"`;
    });
}

/** The post's HTML with every element styled inline, code blocks and their tokens included. */
export function inlineStyles(html: string): string {
  const blocks: string[] = [];
  const outside = html.replace(
    /<pre\b([^>]*)>([\s\S]*?)<\/pre>/g,
    (_m, attrs: string, inner: string) => {
      const code = inner
        .replace(/<code\b([^>]*)>/g, (_c, a: string) => styled("code", a, BLOCK_CODE_STYLE))
        .replace(/<span\b([^>]*)>/g, (_s, a: string) => styled("span", a, ""));
      blocks.push(`${styled("pre", attrs, PRE_STYLE)}${code}</pre>`);
      return `<!--block ${blocks.length - 1}-->`;
    },
  );
  const tags = Object.keys(STYLES).join("|");
  const styledHtml = outside.replace(
    new RegExp(`<(${tags})\\b([^>]*?)(\\s*/)?>`, "g"),
    (_m, tag: string, attrs: string) => styled(tag, attrs, STYLES[tag]!),
  );
  return styledHtml.replace(/<!--block (\d+)-->/g, (_m, i: string) => blocks[Number(i)]!);
}

const ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
};
const decode = (text: string) =>
  text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, e: string) => {
    if (e[0] === "#") {
      const code = e[1] === "x" || e[1] === "X" ? parseInt(e.slice(2), 16) : Number(e.slice(1));
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : m;
    }
    return ENTITIES[e.toLowerCase()] ?? m;
  });

/** The post's HTML as plain text: paragraphs apart, lists dashed, links and images with their addresses. */
export function htmlToText(html: string): string {
  const blocks: string[] = [];
  let text = html.replace(/<pre\b[^>]*>([\s\S]*?)<\/pre>/g, (_m, inner: string) => {
    blocks.push(decode(inner.replace(/<[^>]*>/g, "")).replace(/\n+$/, ""));
    return `\n\n\uE000${blocks.length - 1}\uE000\n\n`;
  });
  text = text
    .replace(/<img\b[^>]*?\balt="([^"]*)"[^>]*?\bsrc="([^"]*)"[^>]*>/g, "[$1]($2)")
    .replace(/<img\b[^>]*?\bsrc="([^"]*)"[^>]*?\balt="([^"]*)"[^>]*>/g, "[$2]($1)")
    .replace(
      /<a\b[^>]*?\bhref="([^"]*)"[^>]*>([\s\S]*?)<\/a>/g,
      (_m, href: string, inner: string) => {
        const label = inner.replace(/<[^>]*>/g, "");
        return decode(label) === decode(href) ? label : `${label} (${href})`;
      },
    )
    .replace(
      /<h[1-3]\b[^>]*>([\s\S]*?)<\/h[1-3]>/g,
      (_m, inner: string) => `\n\n${inner.toUpperCase()}\n\n`,
    )
    .replace(/<li\b[^>]*>/g, "\n- ")
    .replace(/<br\s*\/?>/g, "\n")
    .replace(/<\/(?:p|div|blockquote|ul|ol|table|tr|h[4-6])>/g, "\n\n")
    .replace(/<\/t[dh]>/g, "\t")
    .replace(/<hr\b[^>]*>/g, "\n\n---\n\n")
    .replace(/<[^>]*>/g, "");
  return decode(text)
    .replace(/[ \t]+\n/g, "\n")
    .replace(/\n{3,}/g, "\n\n")
    .replace(/\uE000(\d+)\uE000/g, (_m, i: string) => blocks[Number(i)]!)
    .trim();
}

const dateText = (date: Date | null) =>
  date
    ? date.toLocaleDateString("en", {
        year: "numeric",
        month: "long",
        day: "numeric",
        timeZone: "UTC",
      })
    : "";

/** A post's mail, rendered once; `forRecipient` names each recipient. */
export function renderNewsletter(post: NewsletterPost, site: NewsletterSite): RenderedNewsletter {
  const postUrl = `${site.url}${postPath(post.slug)}`;
  const body = inlineStyles(absoluteUrls(post.content, site.url, postUrl));
  const title = escapeHtml(post.title);
  const date = dateText(post.publishedAt);
  const html =
    `<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">` +
    `<title>${title}</title></head><body style="margin:0;background-color:#ffffff">` +
    `<div style="${BODY_STYLE}">` +
    `<p style="margin:0 0 8px;font-size:14px;color:#57606a">${escapeHtml(site.name)}${date ? ` · ${date}` : ""}</p>` +
    `<h1 style="${STYLES.h1};margin-top:0"><a href="${postUrl}" style="color:#1f2328;text-decoration:none">${title}</a></h1>` +
    body +
    `<p style="margin:24px 0 0"><a href="${postUrl}" style="${STYLES.a}">Read it on the site</a></p>` +
    `<div style="${FOOTER_STYLE}">You get new posts from ${escapeHtml(site.name)} because you subscribed at ` +
    `<a href="${site.url}" style="color:#57606a">${escapeHtml(site.url)}</a>. ` +
    `<a href="${UNSUBSCRIBE}" style="color:#57606a">Unsubscribe</a></div>` +
    `</div></body></html>`;
  const text =
    `${post.title}\n${site.name}${date ? ` · ${date}` : ""}\n${postUrl}\n\n` +
    `${htmlToText(absoluteUrls(post.content, site.url, postUrl))}\n\n` +
    `--\nYou get new posts from ${site.name} because you subscribed at ${site.url}.\n` +
    `Unsubscribe: ${UNSUBSCRIBE}\n`;
  return { subject: post.title, html, text, postUrl };
}

/**
 * One recipient's copy: their unsubscribe link in the footer and in `List-Unsubscribe`, with
 * one-click unsubscribing (RFC 8058), and a Message-ID fixed by post and subscriber, so a copy
 * sent twice (a worker killed between the mail server's answer and the mark) shows as one.
 */
export function newsletterMailFor(
  rendered: RenderedNewsletter,
  site: NewsletterSite,
  recipient: { postId: number; subscriberId: number; email: string; unsubscribeUrl: string },
): Mail {
  const link = recipient.unsubscribeUrl;
  const host = new URL(site.url).hostname;
  return {
    to: recipient.email,
    from: site.from,
    replyTo: site.from,
    subject: rendered.subject,
    html: rendered.html.replace(UNSUBSCRIBE, escapeHtml(link)),
    text: rendered.text.replace(UNSUBSCRIBE, link),
    idempotencyKey: `newsletter-${recipient.postId}-${recipient.subscriberId}`,
    messageId: `<newsletter-${recipient.postId}-${recipient.subscriberId}@${host}>`,
    headers: {
      "List-Unsubscribe": `<${link}>`,
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    },
  };
}

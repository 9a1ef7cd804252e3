/**
 * Back to top, for both of the button's implementations: React's on pages that hydrate
 * (./back-to-top.tsx) and the site script's on content pages (./site-script.ts, which inlines
 * this function's source, so it may use nothing but its parameter and the DOM).
 *
 * Focus moves first, without scrolling, to the page's main heading (the top of its content, so
 * the next Tab goes on from there). Left on the button, it would be on an element that hides
 * itself 300 px from the top while the smooth scroll is still on its way. React, re-rendering the
 * button hidden, finds focus gone from it, focuses it again and writes back the page's scroll
 * position around that call; a written scroll position ends a smooth scroll, so `/` stopped
 * about 300 px short of the top.
 */
export function toTop(behavior: ScrollBehavior) {
  const main = document.querySelector<HTMLElement>("main");
  const heading = main?.querySelector<HTMLElement>("h1") ?? main;
  if (heading) {
    if (!heading.hasAttribute("tabindex")) heading.tabIndex = -1;
    heading.focus({ preventScroll: true });
  }
  window.scrollTo({ top: 0, behavior });
}

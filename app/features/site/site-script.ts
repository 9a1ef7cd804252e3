/**
 * The one script content pages run instead of React (docs/decisions/019-content-pages-without-a-framework.md):
 * the server renders every control's markup, and this attaches behaviour to it. The theme switch,
 * the phone menu and the header's links to the home page's sections, the back-to-top button, a
 * post's copy buttons and heading links, and its `Read in English` switch; the home page's contact
 * form (app/features/contact/contact-script.ts).
 *
 * It is inlined into the page as its own source (`SITE_SCRIPT`, with the page's CSP nonce), so
 * `siteScript`, `attachContentActions`, `toTop`, `attachContactForm`, `checkContact` and
 * `homeSections` may use nothing but their parameters and the DOM.
 */
import {
  attachContactForm,
  checkContact,
  CONTACT_SCRIPT_CONFIG,
  type ContactScriptConfig,
} from "~/features/contact/index.script";
import { BACK_TO_TOP_THRESHOLD_PX, HEADER_SCROLL_DELAY_MS } from "~/lib/constants";
import { attachContentActions, COPIED_MS, COPY_TEXT } from "./content-actions";
import { THEME_STORAGE_KEY, themeInitScript } from "./theme";
import { toTop } from "./to-top";

export type SiteScriptConfig = {
  themeKey: string;
  backToTopPx: number;
  copyText: typeof COPY_TEXT;
  copiedMs: number;
  scrollDelayMs: number;
  contact: ContactScriptConfig;
};

export function siteScript(
  config: SiteScriptConfig,
  attach: typeof attachContentActions,
  backToTop: typeof toTop,
  contact: typeof attachContactForm,
  check: typeof checkContact,
  sections: typeof homeSections,
) {
  const root = document.documentElement;
  const all = <T extends Element>(selector: string) => [...document.querySelectorAll<T>(selector)];
  const behavior = (): ScrollBehavior =>
    matchMedia("(prefers-reduced-motion: reduce)").matches ? "auto" : "smooth";

  // The theme switch: remembers a choice; until there is one, follows the system, live.
  const toggles = all<HTMLButtonElement>("[data-theme-toggle]");
  const showTheme = () => {
    const dark = root.classList.contains("dark");
    for (const toggle of toggles) toggle.setAttribute("aria-pressed", String(dark));
  };
  const stored = () => {
    try {
      return localStorage.getItem(config.themeKey);
    } catch {
      return null;
    }
  };
  for (const toggle of toggles) {
    toggle.addEventListener("click", () => {
      const dark = !root.classList.contains("dark");
      root.classList.toggle("dark", dark);
      try {
        localStorage.setItem(config.themeKey, dark ? "dark" : "light");
      } catch {
        // Private mode or storage disabled: the choice lasts for this page only.
      }
      showTheme();
    });
  }
  matchMedia("(prefers-color-scheme: dark)").addEventListener("change", (event) => {
    const choice = stored();
    if (choice === "dark" || choice === "light") return;
    root.classList.toggle("dark", event.matches);
    showTheme();
  });
  showTheme();

  // The phone menu: opens and closes its panel; Escape closes it.
  for (const button of all<HTMLButtonElement>("[data-menu-toggle]")) {
    const panel = document.getElementById(button.getAttribute("aria-controls") ?? "");
    if (!panel) continue;
    const open = (value: boolean) => {
      button.setAttribute("aria-expanded", String(value));
      panel.hidden = !value;
    };
    button.addEventListener("click", () => open(button.getAttribute("aria-expanded") !== "true"));
    // A section button in it (on the home page, which stays) closes it.
    for (const item of panel.querySelectorAll("[data-home-section]")) {
      item.addEventListener("click", () => open(false));
    }
    document.addEventListener("keydown", (event) => {
      if (event.key === "Escape" && !panel.hidden) open(false);
    });
  }

  sections(config.scrollDelayMs);

  // Back to top: shown past the threshold; focus to the main heading, then a smooth scroll
  // unless motion is reduced.
  const top = document.querySelector<HTMLButtonElement>("[data-back-to-top]");
  if (top) {
    const update = () => {
      top.hidden = window.scrollY <= config.backToTopPx;
    };
    window.addEventListener("scroll", update, { passive: true });
    top.addEventListener("click", () => backToTop(behavior()));
    update();
  }

  // A post: copy buttons and heading links, announced in its live region.
  const live = document.querySelector<HTMLElement>("[data-announce]");
  const announce = (text: string) => {
    if (!live) return;
    // Cleared first, so saying the same thing twice is announced twice.
    live.textContent = "";
    requestAnimationFrame(() => {
      live.textContent = text;
    });
  };
  for (const content of all<HTMLElement>("[data-content-actions]")) {
    attach(content, announce, config.copyText, config.copiedMs);
  }

  // The home page's contact form.
  for (const form of all<HTMLFormElement>("form[data-contact-form]")) {
    contact(form, config.contact, check);
  }

  // A post's `Read in English` switch: shows one version. Its contents and reading time are
  // both in the page, one hidden; the body trades places with the other version's template.
  const body = document.querySelector<HTMLElement>("[data-version-body]");
  const other = document.querySelector<HTMLTemplateElement>("template[data-version-other]");
  for (const toggle of all<HTMLButtonElement>("[data-version-switch]")) {
    toggle.addEventListener("click", () => {
      const english = toggle.getAttribute("aria-checked") !== "true";
      toggle.setAttribute("aria-checked", String(english));
      for (const part of all<HTMLElement>("[data-version]")) {
        part.hidden = (part.dataset.version === "en") !== english;
      }
      if (body && other) {
        const shown = body.innerHTML;
        body.innerHTML = other.innerHTML;
        other.innerHTML = shown;
        if (english) body.lang = "en";
        else body.removeAttribute("lang");
      }
    });
  }
}

/**
 * The header's About Me and section buttons lead to the home page (and its section); on the home
 * page itself they scroll there, smoothly unless motion is reduced, after the delay the product
 * gives the page to render (as the React header does: ./header.tsx).
 */
export function homeSections(delayMs: number) {
  for (const button of document.querySelectorAll<HTMLElement>("[data-home-section]")) {
    button.addEventListener("click", () => {
      const section = button.dataset.homeSection;
      const hash = section ? `#${section}` : "";
      if (location.pathname !== "/") return location.assign(`/${hash}`);
      if (location.hash !== hash) history.pushState(null, "", `/${hash}`);
      const behavior = matchMedia("(prefers-reduced-motion: reduce)").matches ? "auto" : "smooth";
      setTimeout(() => {
        const target = section ? document.getElementById(section) : null;
        if (target) target.scrollIntoView({ behavior, block: "start" });
        else window.scrollTo({ top: 0, behavior });
      }, delayMs);
    });
  }
}

const config: SiteScriptConfig = {
  themeKey: THEME_STORAGE_KEY,
  backToTopPx: BACK_TO_TOP_THRESHOLD_PX,
  copyText: COPY_TEXT,
  copiedMs: COPIED_MS,
  scrollDelayMs: HEADER_SCROLL_DELAY_MS,
  contact: CONTACT_SCRIPT_CONFIG,
};

/**
 * The inline script itself: the functions' source, called with the site's settings (`<` escaped,
 * so no text in them can close the script element).
 */
export const SITE_SCRIPT = `(${siteScript.toString()})(${JSON.stringify(config).replaceAll("<", "\\u003c")},${attachContentActions.toString()},${toTop.toString()},${attachContactForm.toString()},${checkContact.toString()},${homeSections.toString()})`;

/**
 * Every inline script a page that does not load React carries (app/root.tsx): the theme's,
 * before the first paint, and the site script. Such a page has no nonce; its CSP allows these
 * two by their hashes (server/security.ts), so a cache can give its bytes to every visitor.
 */
export const INLINE_SCRIPTS: readonly string[] = [themeInitScript, SITE_SCRIPT];

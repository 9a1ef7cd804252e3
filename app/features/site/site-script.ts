/**
 * The one script content pages run instead of React (docs/decisions/019-content-pages-without-a-framework.md):
 * the server renders every control's markup, and this attaches behaviour to it. The theme switch,
 * the phone menu and the header's links to the home page's sections, the back-to-top button, a
 * post's copy buttons and heading links, and its `Read in English` switch.
 *
 * It is inlined into the page as its own source (`SITE_SCRIPT`, with the page's CSP nonce), so
 * `siteScript`, `attachContentActions` and `toTop` may use nothing but their parameters and the
 * DOM.
 */
import { BACK_TO_TOP_THRESHOLD_PX } from "~/lib/constants";
import { attachContentActions, COPIED_MS, COPY_TEXT } from "./content-actions";
import { THEME_STORAGE_KEY } from "./theme";
import { toTop } from "./to-top";

export type SiteScriptConfig = {
  themeKey: string;
  backToTopPx: number;
  copyText: typeof COPY_TEXT;
  copiedMs: number;
};

export function siteScript(
  config: SiteScriptConfig,
  attach: typeof attachContentActions,
  backToTop: typeof toTop,
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
    document.addEventListener("keydown", (event) => {
      if (event.key === "Escape" && !panel.hidden) open(false);
    });
  }

  // The header's About Me and section buttons lead to the home page (and its section).
  for (const button of all<HTMLElement>("[data-home-section]")) {
    button.addEventListener("click", () => {
      const section = button.dataset.homeSection;
      location.assign(section ? `/#${section}` : "/");
    });
  }

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

const config: SiteScriptConfig = {
  themeKey: THEME_STORAGE_KEY,
  backToTopPx: BACK_TO_TOP_THRESHOLD_PX,
  copyText: COPY_TEXT,
  copiedMs: COPIED_MS,
};

/**
 * The inline script itself: the functions' source, called with the site's settings (`<` escaped,
 * so no text in them can close the script element).
 */
export const SITE_SCRIPT = `(${siteScript.toString()})(${JSON.stringify(config).replaceAll("<", "\\u003c")},${attachContentActions.toString()},${toTop.toString()})`;

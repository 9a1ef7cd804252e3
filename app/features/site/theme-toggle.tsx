import { Moon, Sun } from "lucide-react";
import { useSyncExternalStore } from "react";

import { applyTheme, currentTheme, storedTheme } from "./theme";

/** Watches the class on <html>; until the visitor chooses, it also follows the system, live. */
function subscribe(onChange: () => void) {
  const observer = new MutationObserver(onChange);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ["class"] });
  const system = window.matchMedia("(prefers-color-scheme: dark)");
  const follow = (event: MediaQueryListEvent) => {
    if (!storedTheme()) applyTheme(event.matches ? "dark" : "light", false);
  };
  system.addEventListener("change", follow);
  return () => {
    observer.disconnect();
    system.removeEventListener("change", follow);
  };
}

/**
 * Switches light/dark and remembers the choice. The first paint is already right: an inline
 * script in <head> sets the class before the body renders (app/root.tsx).
 */
export function ThemeToggle() {
  // null on the server, where the theme is unknown.
  const theme = useSyncExternalStore(subscribe, currentTheme, () => null);
  const isDark = theme === "dark";
  return (
    <button
      type="button"
      onClick={() => applyTheme(isDark ? "light" : "dark", true)}
      aria-label="Dark theme"
      aria-pressed={theme === null ? undefined : isDark}
      // Pages that do not hydrate get their behaviour from app/features/site/site-script.ts.
      data-theme-toggle=""
      className="inline-flex size-10 items-center justify-center rounded-full text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-800"
    >
      {/* Both icons, one shown by the theme's class: right from the first paint, without script. */}
      <Sun aria-hidden="true" className="hidden size-5 dark:block" />
      <Moon aria-hidden="true" className="size-5 dark:hidden" />
    </button>
  );
}

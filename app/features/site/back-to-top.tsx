import { ArrowUp } from "lucide-react";
import { useSyncExternalStore } from "react";

import { BACK_TO_TOP_THRESHOLD_PX } from "~/lib/constants";
import { scrollBehavior } from "~/lib/scroll";

import { toTop } from "./to-top";

function subscribe(onChange: () => void) {
  window.addEventListener("scroll", onChange, { passive: true });
  return () => window.removeEventListener("scroll", onChange);
}

const isPastThreshold = () => window.scrollY > BACK_TO_TOP_THRESHOLD_PX;

/**
 * Bottom-right button, shown once the page is scrolled more than 300 px. Always in the markup
 * (hidden until then), so pages that do not hydrate can show it (app/features/site/site-script.ts).
 * Pressed, it moves focus to the main heading and scrolls to the top (./to-top.ts).
 */
export function BackToTop() {
  const visible = useSyncExternalStore(subscribe, isPastThreshold, () => false);
  return (
    <button
      type="button"
      onClick={() => toTop(scrollBehavior())}
      hidden={!visible}
      data-back-to-top=""
      aria-label="Back to top"
      className="fixed right-4 bottom-4 z-30 inline-flex size-12 items-center justify-center rounded-full bg-sky-700 text-white shadow-lg hover:bg-sky-800 dark:bg-sky-400 dark:text-slate-950 dark:hover:bg-sky-300"
    >
      <ArrowUp aria-hidden="true" className="size-5" />
    </button>
  );
}

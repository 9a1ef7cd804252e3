import { Menu, X } from "lucide-react";
import { useEffect, useId, useState } from "react";
import { Form, Link, useLocation, useNavigate, useRouteLoaderData } from "react-router";

import { HEADER_SCROLL_DELAY_MS } from "~/lib/constants";
import { scrollToSection, scrollToTop } from "~/lib/scroll";
import { useSite } from "./use-site";

import { ThemeToggle } from "./theme-toggle";

export const SECTIONS = [
  { id: "summary", label: "Summary" },
  { id: "skills", label: "Skills" },
  { id: "experience", label: "Experience" },
  { id: "education", label: "Education" },
  { id: "tools", label: "Tools" },
  { id: "contact", label: "Contact" },
] as const;

/**
 * Goes to `/` (or `/#section`) and about 100 ms later scrolls smoothly to the top or to that
 * section (docs/product.md#header), so the home page has rendered before it scrolls.
 */
function useGoHome() {
  const navigate = useNavigate();
  const location = useLocation();
  return (sectionId?: string) => {
    const hash = sectionId ? `#${sectionId}` : "";
    const onHome = location.pathname === "/";
    if (!onHome || location.hash !== hash) {
      // On the home page the scroll below does the moving; elsewhere the new page starts at the top.
      navigate(`/${hash}`, { preventScrollReset: onHome });
    }
    window.setTimeout(() => {
      if (!sectionId || !scrollToSection(sectionId)) scrollToTop();
    }, HEADER_SCROLL_DELAY_MS);
  };
}

const navButton =
  "rounded-md px-2 py-2 text-sm font-medium whitespace-nowrap sm:px-3 text-slate-700 hover:bg-slate-100 hover:text-slate-950 dark:text-slate-200 dark:hover:bg-slate-800 dark:hover:text-white";

/** Whether the owner is signed in (from the root loader; false on pages without it). */
export function useIsOwner(): boolean {
  const root = useRouteLoaderData("root") as { isOwner?: boolean } | undefined;
  return root?.isOwner === true;
}

/** The signed-in owner's pages (left out of a phone's narrow bar) and Sign out. */
function OwnerLinks() {
  return (
    <>
      <Link to="/admin/posts" className={`${navButton} hidden sm:inline-block`}>
        Posts
      </Link>
      <Link to="/admin/messages" className={`${navButton} hidden sm:inline-block`}>
        Messages
      </Link>
      <Link to="/admin/subscribers" className={`${navButton} hidden sm:inline-block`}>
        Subscribers
      </Link>
      <Link to="/admin/social" className={`${navButton} hidden sm:inline-block`}>
        Social
      </Link>
      <Link to="/admin/profile" className={`${navButton} hidden sm:inline-block`}>
        Profile
      </Link>
      <Form method="post" action="/logout">
        <button type="submit" className={navButton}>
          Sign out
        </button>
      </Form>
    </>
  );
}

export function Header() {
  const site = useSite();
  const goHome = useGoHome();
  const owner = useIsOwner();
  const [menuOpen, setMenuOpen] = useState(false);
  const menuId = useId();

  useEffect(() => {
    if (!menuOpen) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") setMenuOpen(false);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [menuOpen]);

  return (
    <header className="fixed inset-x-0 top-0 z-40 border-b border-slate-200 bg-white/90 backdrop-blur dark:border-slate-800 dark:bg-slate-950/90">
      <nav aria-label="Main" className="mx-auto flex h-16 max-w-6xl items-center gap-1 px-4">
        <Link
          to="/"
          className="mr-auto truncate text-base font-bold sm:text-lg text-slate-900 dark:text-white"
        >
          {site.name}
        </Link>
        <button type="button" className={navButton} onClick={() => goHome()} data-home-section="">
          About Me
        </button>
        <Link to="/blog" className={navButton}>
          Blog
        </Link>
        <ul className="hidden items-center lg:flex" aria-label="Sections">
          {SECTIONS.map((section) => (
            <li key={section.id}>
              <button
                type="button"
                className={navButton}
                onClick={() => goHome(section.id)}
                data-home-section={section.id}
              >
                {section.label}
              </button>
            </li>
          ))}
        </ul>
        {owner ? <OwnerLinks /> : null}
        <ThemeToggle />
        <button
          type="button"
          className="group inline-flex size-10 items-center justify-center rounded-md text-slate-700 hover:bg-slate-100 lg:hidden dark:text-slate-200 dark:hover:bg-slate-800"
          aria-label="Menu"
          aria-expanded={menuOpen}
          aria-controls={menuId}
          onClick={() => setMenuOpen((open) => !open)}
          // Pages that do not hydrate get their behaviour from app/features/site/site-script.ts; the icon
          // follows aria-expanded either way.
          data-menu-toggle=""
        >
          <X aria-hidden="true" className="hidden size-5 group-aria-expanded:block" />
          <Menu aria-hidden="true" className="size-5 group-aria-expanded:hidden" />
        </button>
      </nav>
      <div
        id={menuId}
        hidden={!menuOpen}
        className="border-t border-slate-200 bg-white lg:hidden dark:border-slate-800 dark:bg-slate-950"
      >
        <ul className="mx-auto grid max-w-6xl gap-1 px-4 py-2" aria-label="Sections">
          {SECTIONS.map((section) => (
            <li key={section.id}>
              <button
                type="button"
                className={`${navButton} w-full text-left`}
                onClick={() => {
                  setMenuOpen(false);
                  goHome(section.id);
                }}
                data-home-section={section.id}
              >
                {section.label}
              </button>
            </li>
          ))}
        </ul>
      </div>
    </header>
  );
}

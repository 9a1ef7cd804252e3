import { Link } from "react-router";

import { useSite } from "./use-site";

export function Footer() {
  const site = useSite();
  return (
    <footer className="border-t border-slate-200 py-8 text-sm text-slate-600 dark:border-slate-800 dark:text-slate-400">
      <div className="mx-auto flex max-w-6xl flex-col items-center justify-between gap-2 px-4 sm:flex-row">
        <p>
          © {new Date().getFullYear()} {site.name} · {site.title}, {site.location}
        </p>
        <p className="flex gap-4">
          <Link to="/" className="hover:underline">
            Home
          </Link>
          <Link to="/blog" className="hover:underline">
            Blog
          </Link>
          <a href={`mailto:${site.email}`} className="hover:underline">
            {site.email}
          </a>
        </p>
      </div>
    </footer>
  );
}

/**
 * The site's buttons, one look each, for `<button>`s and for links that act as buttons
 * (`<Link className={buttonClass(…)}>`): the primary action of a form or page, a secondary one,
 * and a destructive one. A class, not a component: the home page loads this module, and a
 * component would ship to it for the owner's forms' sake.
 */
export type ButtonVariant = "primary" | "secondary" | "danger";
/** `sm`: the owner's forms; `md`: page actions; `lg`: the one call to action of a section. */
export type ButtonSize = "sm" | "md" | "lg";

const VARIANTS: Record<ButtonVariant, string> = {
  primary:
    "bg-sky-700 text-white hover:bg-sky-800 dark:bg-sky-400 dark:text-slate-950 dark:hover:bg-sky-300",
  secondary:
    "border border-slate-300 text-slate-800 hover:bg-slate-100 dark:border-slate-600 dark:text-slate-100 dark:hover:bg-slate-800",
  danger:
    "border border-red-700 text-red-800 hover:bg-red-50 dark:border-red-400 dark:text-red-300 dark:hover:bg-red-950",
};
const SIZES: Record<ButtonSize, string> = {
  sm: "gap-1.5 px-3 py-1.5 text-sm",
  md: "gap-2 px-4 py-2",
  lg: "gap-2 px-5 py-2.5",
};

export type ButtonStyle = {
  variant?: ButtonVariant;
  size?: ButtonSize;
  /** Fill the width of its container (a form's only button). */
  block?: boolean;
  /** Layout only (margins, placement): never colours or sizes, which the variant owns. */
  className?: string;
};

export function buttonClass({
  variant = "primary",
  size = "md",
  block,
  className,
}: ButtonStyle = {}) {
  return [
    block ? "flex w-full justify-center" : "inline-flex",
    "items-center rounded-lg font-medium disabled:opacity-60",
    SIZES[size],
    VARIANTS[variant],
    className,
  ]
    .filter(Boolean)
    .join(" ");
}

import { buttonClass } from "~/ui/button";

/** The looks of the editor page's own fields and buttons. */
export const fieldClass =
  "mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-slate-900 placeholder:text-slate-500 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100";
export { labelClass } from "~/ui/fields";
export const hintClass = "mt-1 text-sm text-slate-600 dark:text-slate-400";
export const primaryClass = buttonClass();
export const secondaryClass =
  "inline-flex items-center gap-2 rounded-lg border border-slate-300 px-4 py-2 font-medium text-slate-800 hover:bg-slate-100 dark:border-slate-700 dark:text-slate-100 dark:hover:bg-slate-800";

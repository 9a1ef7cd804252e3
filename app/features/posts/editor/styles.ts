import { buttonClass } from "~/ui/button";

/** The looks of the editor page's own fields and buttons. */
export const fieldClass =
  "mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-slate-900 placeholder:text-slate-500 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100";
export { labelClass } from "~/ui/fields";
export const hintClass = "mt-1 text-sm text-slate-600 dark:text-slate-400";
export const primaryClass = buttonClass();
export const secondaryClass =
  "inline-flex items-center gap-2 rounded-lg border border-slate-300 px-4 py-2 font-medium text-slate-800 hover:bg-slate-100 dark:border-slate-700 dark:text-slate-100 dark:hover:bg-slate-800";
/**
 * The History panel's diff marks: added text underlined, removed text struck through, each
 * tinted as well (never colour alone) and set a little apart where one follows the other; an
 * added image outlined, a removed one dashed and faded.
 */
export const diffMarksClass =
  "[&_ins]:rounded-sm [&_ins]:px-0.5 [&_del]:rounded-sm [&_del]:px-0.5 [&_del+ins]:ms-1 [&_ins]:bg-emerald-100 [&_ins]:text-emerald-950 [&_ins]:underline [&_ins]:decoration-2 [&_ins]:underline-offset-2 dark:[&_ins]:bg-emerald-950 dark:[&_ins]:text-emerald-50 [&_del]:bg-rose-100 [&_del]:text-rose-950 [&_del]:line-through [&_del]:decoration-2 dark:[&_del]:bg-rose-950 dark:[&_del]:text-rose-50 [&_ins_img]:outline-2 [&_ins_img]:outline-emerald-700 [&_del_img]:opacity-60 [&_del_img]:outline-2 [&_del_img]:outline-dashed [&_del_img]:outline-rose-700";

/**
 * The editor's box before TipTap mounts (it renders only in the browser, so this is also what the
 * server sends): the same size, empty.
 */
export function EditorPlaceholder() {
  return <div className="min-h-[453px] rounded-lg border border-slate-300 dark:border-slate-700" />;
}

import type { HomeProfile } from "~/features/site";

import { ToolGlyph } from "./icons";
import { Section } from "~/ui/section";

export function Tools({ tools }: Pick<HomeProfile, "tools">) {
  return (
    <Section id="tools" title="Tools">
      <ul
        data-testid="tools-grid"
        className="grid grid-cols-1 gap-4 sm:grid-cols-2 md:grid-cols-3 lg:grid-cols-5"
      >
        {tools.map((tool, i) => (
          <li
            key={i}
            className="flex flex-col items-center gap-2 rounded-xl border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900"
          >
            <ToolGlyph glyph={tool.glyph} className="size-8 text-slate-800 dark:text-slate-100" />
            <span className="font-medium text-slate-900 dark:text-slate-100">{tool.name}</span>
          </li>
        ))}
      </ul>
    </Section>
  );
}

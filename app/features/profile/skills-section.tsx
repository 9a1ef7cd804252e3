import type { HomeProfile } from "~/features/site";

import { SkillGlyph } from "./icons";
import { Section } from "~/ui/section";

export function Skills({ skills }: Pick<HomeProfile, "skills">) {
  return (
    <Section id="skills" title="Skills">
      <ul
        data-testid="skills-grid"
        className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4"
      >
        {skills.map((skill, i) => (
          <li
            key={i}
            className="flex items-center gap-3 rounded-xl border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900"
          >
            <SkillGlyph icon={skill.icon} className="size-6 text-sky-700 dark:text-sky-300" />
            <span className="font-medium text-slate-900 dark:text-slate-100">{skill.name}</span>
          </li>
        ))}
      </ul>
    </Section>
  );
}

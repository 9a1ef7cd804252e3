import type { ImportPlan } from "./plan";

const SOURCE_NAMES: Record<ImportPlan["source"], string> = {
  wordpress: "WordPress export",
  ghost: "Ghost export",
  medium: "Medium export",
  markdown: "Markdown files",
  devto: "dev.to export",
};

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The dry run's report as lines of text (the command line prints them; the page shows them). */
export function planLines(plan: ImportPlan): string[] {
  const { counts } = plan;
  const lines = [
    `${SOURCE_NAMES[plan.source]}: ${plural(counts.posts, "post")} to create ` +
      `(${counts.published} published, ${plural(counts.drafts, "draft")}, ${counts.scheduled} scheduled), ` +
      `${plural(counts.images, "image")}, ${plural(plan.newTags.length, "new tag")}` +
      `${plan.newTags.length > 0 ? ` (${plan.newTags.join(", ")})` : ""}.`,
  ];
  for (const post of plan.create) {
    const state = post.status === "published" ? "" : ` [${post.status}]`;
    lines.push(`  + ${post.slug}${state}: ${post.title}`);
    if (post.droppedTags.length > 0)
      lines.push(`    tags left out: ${post.droppedTags.join(", ")}`);
  }
  if (plan.collisions.length > 0) {
    lines.push(`Slug collisions: ${plan.collisions.length}`);
    for (const c of plan.collisions)
      lines.push(`  ${c.wanted} is taken: ${c.title} becomes ${c.slug}`);
  }
  if (plan.skipped.length > 0) {
    lines.push(`Skipped: ${plan.skipped.length}`);
    for (const s of plan.skipped)
      lines.push(`  - ${s.title || s.sourceId || "(untitled)"}: ${s.reason}`);
  }
  return lines;
}

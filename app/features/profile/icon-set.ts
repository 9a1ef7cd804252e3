/**
 * The site's icon set: the ids the owner picks from for skills, tools and social links, with
 * the name each is shown under in the picker. Ids only; what each draws lives in
 * app/features/profile/icons.tsx (skills, links) and app/features/profile/tool-icons.ts (tools).
 * The ids are the stored ones (database/profile-content.ts): each list below must name every
 * stored id, and no other, or it does not compile.
 */
import type { SkillIcon, SocialKind, ToolIcon } from "../../../database/profile-content";

export type { SkillIcon, SocialKind, ToolIcon };

/** Line icons (lucide) for skills. */
export const SKILL_ICONS = {
  server: "Server",
  database: "Database",
  cloud: "Cloud",
  "git-branch": "Branch",
  code: "Code",
  terminal: "Terminal",
  cpu: "Processor",
  network: "Network",
  shield: "Shield",
  layers: "Layers",
  workflow: "Workflow",
  chart: "Chart",
  bot: "Bot",
  smartphone: "Phone",
  globe: "Globe",
  gauge: "Gauge",
  wrench: "Wrench",
  users: "People",
} as const satisfies Record<SkillIcon, string>;

/** Brand marks for tools; `initials` draws the tool's initials when no mark fits. */
export const TOOL_ICONS = {
  nodejs: "Node.js",
  ruby: "Ruby",
  python: "Python",
  docker: "Docker",
  aws: "AWS",
  typescript: "TypeScript",
  javascript: "JavaScript",
  go: "Go",
  rust: "Rust",
  java: "Java",
  kotlin: "Kotlin",
  php: "PHP",
  postgresql: "PostgreSQL",
  mysql: "MySQL",
  redis: "Redis",
  mongodb: "MongoDB",
  sqlite: "SQLite",
  rabbitmq: "RabbitMQ",
  kafka: "Apache Kafka",
  kubernetes: "Kubernetes",
  terraform: "Terraform",
  ansible: "Ansible",
  git: "Git",
  github: "GitHub",
  gitlab: "GitLab",
  "github-actions": "GitHub Actions",
  jenkins: "Jenkins",
  linux: "Linux",
  bash: "Bash",
  nginx: "NGINX",
  graphql: "GraphQL",
  react: "React",
  rails: "Ruby on Rails",
  django: "Django",
  elasticsearch: "Elasticsearch",
  prometheus: "Prometheus",
  grafana: "Grafana",
  "google-cloud": "Google Cloud",
  initials: "Initials",
} as const satisfies Record<ToolIcon, string>;

/** Kinds of social link; the kind decides the mark and whether the link opens a new tab. */
export const SOCIAL_KINDS = {
  microblogging: "Microblogging (X)",
  "photo-sharing": "Photo sharing (Instagram)",
  "code-hosting": "Code hosting (GitHub)",
  "professional-network": "Professional network (LinkedIn)",
  website: "Website",
} as const satisfies Record<SocialKind, string>;

export const isSkillIcon = (id: string): id is SkillIcon => Object.hasOwn(SKILL_ICONS, id);
export const isToolIcon = (id: string): id is ToolIcon => Object.hasOwn(TOOL_ICONS, id);
export const isSocialKind = (id: string): id is SocialKind => Object.hasOwn(SOCIAL_KINDS, id);

const normalize = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, "");

/** The tool mark whose name matches `name` ("Node.js", "node js", "Postgres"…), or `initials`. */
export function toolIconFor(name: string): ToolIcon {
  const key = normalize(name);
  for (const [id, label] of Object.entries(TOOL_ICONS)) {
    if (id !== "initials" && (normalize(label) === key || normalize(id) === key)) {
      return id as ToolIcon;
    }
  }
  const aliases: Record<string, ToolIcon> = {
    postgres: "postgresql",
    golang: "go",
    k8s: "kubernetes",
    node: "nodejs",
    rubyonrails: "rails",
    amazonwebservices: "aws",
    gcp: "google-cloud",
    shell: "bash",
  };
  return aliases[key] ?? "initials";
}

/** A social link's kind from its address or its network's name; `website` otherwise. */
export function socialKindFor(network: string, url: string): SocialKind {
  let host = "";
  try {
    host = new URL(url).hostname.replace(/^www\./, "");
  } catch {
    // Not an absolute URL: go by the network's name.
  }
  const name = normalize(network);
  if (["x.com", "twitter.com"].includes(host) || ["x", "twitter"].includes(name)) {
    return "microblogging";
  }
  if (host === "instagram.com" || name === "instagram") return "photo-sharing";
  if (["github.com", "gitlab.com"].includes(host) || ["github", "gitlab"].includes(name)) {
    return "code-hosting";
  }
  if (host === "linkedin.com" || name === "linkedin") return "professional-network";
  return "website";
}

/** Up to three letters for a tile: each word's first ("Apache Spark" → "AS"), or a word's first two. */
export function initialsOf(name: string): string {
  const words = name
    .trim()
    .split(/[\s._-]+/)
    .filter(Boolean);
  const letters =
    words.length > 1 ? words.map((w) => w[0]).join("") : (words[0] ?? "?").slice(0, 2);
  return letters.slice(0, 3);
}

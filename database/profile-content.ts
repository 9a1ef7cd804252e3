/**
 * The shapes of the profile's JSON columns (database/schema.ts), owned here so the schema
 * names no module of the app. The profile feature re-exports them, checks every write against
 * them (app/features/profile/profile.ts), and keeps each icon's name for the picker beside its
 * id (app/features/profile/icon-set.ts, which fails to compile when the two lists part).
 */

/** Line icons (lucide) for skills. */
export type SkillIcon =
  | "server"
  | "database"
  | "cloud"
  | "git-branch"
  | "code"
  | "terminal"
  | "cpu"
  | "network"
  | "shield"
  | "layers"
  | "workflow"
  | "chart"
  | "bot"
  | "smartphone"
  | "globe"
  | "gauge"
  | "wrench"
  | "users";

/** Brand marks for tools; `initials` draws the tool's initials when no mark fits. */
export type ToolIcon =
  | "nodejs"
  | "ruby"
  | "python"
  | "docker"
  | "aws"
  | "typescript"
  | "javascript"
  | "go"
  | "rust"
  | "java"
  | "kotlin"
  | "php"
  | "postgresql"
  | "mysql"
  | "redis"
  | "mongodb"
  | "sqlite"
  | "rabbitmq"
  | "kafka"
  | "kubernetes"
  | "terraform"
  | "ansible"
  | "git"
  | "github"
  | "gitlab"
  | "github-actions"
  | "jenkins"
  | "linux"
  | "bash"
  | "nginx"
  | "graphql"
  | "react"
  | "rails"
  | "django"
  | "elasticsearch"
  | "prometheus"
  | "grafana"
  | "google-cloud"
  | "initials";

/** Kinds of social link; the kind decides the mark and whether the link opens a new tab. */
export type SocialKind =
  "microblogging" | "photo-sharing" | "code-hosting" | "professional-network" | "website";

export type SocialLink = { kind: SocialKind; label: string; url: string };
export type Skill = { name: string; icon: SkillIcon };
export type Tool = { name: string; icon: ToolIcon };

/** What the owner writes about themselves (the photo and CV are files, apart). */
export type ProfileContent = {
  name: string;
  title: string;
  location: string;
  email: string;
  /** The About me summary, one string per paragraph. */
  about: string[];
  socials: SocialLink[];
  skills: Skill[];
  tools: Tool[];
};

/** One uploaded photo: its resized files (media rows), smallest first. */
export type StoredPhoto = {
  files: { hash: string; type: "image/webp" | "image/jpeg"; width: number; height: number }[];
};
/** The uploaded CV (a media row). */
export type StoredCv = { hash: string; size: number };

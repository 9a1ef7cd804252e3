/**
 * What each tool icon draws: a brand mark's path from simple-icons, or letters. Only the
 * server (which hands the home page the marks it shows) and the admin page (the picker's
 * previews) load this: every mark at once is tens of kilobytes the home page must not carry.
 */
import {
  siAnsible,
  siApachekafka,
  siDjango,
  siDocker,
  siElasticsearch,
  siGit,
  siGithub,
  siGithubactions,
  siGitlab,
  siGnubash,
  siGo,
  siGooglecloud,
  siGrafana,
  siGraphql,
  siJavascript,
  siJenkins,
  siKotlin,
  siKubernetes,
  siLinux,
  siMongodb,
  siMysql,
  siNginx,
  siNodedotjs,
  siOpenjdk,
  siPhp,
  siPostgresql,
  siPrometheus,
  siPython,
  siRabbitmq,
  siReact,
  siRedis,
  siRuby,
  siRubyonrails,
  siRust,
  siSqlite,
  siTerraform,
  siTypescript,
} from "simple-icons";

import { initialsOf, type ToolIcon } from "./icon-set";

/** A 24×24 brand mark's path, or letters drawn on a tile (marks simple-icons does not carry). */
export type ToolGlyphData = { path: string } | { letters: string };

const PATHS: Record<Exclude<ToolIcon, "aws" | "initials">, string> = {
  nodejs: siNodedotjs.path,
  ruby: siRuby.path,
  python: siPython.path,
  docker: siDocker.path,
  typescript: siTypescript.path,
  javascript: siJavascript.path,
  go: siGo.path,
  rust: siRust.path,
  java: siOpenjdk.path,
  kotlin: siKotlin.path,
  php: siPhp.path,
  postgresql: siPostgresql.path,
  mysql: siMysql.path,
  redis: siRedis.path,
  mongodb: siMongodb.path,
  sqlite: siSqlite.path,
  rabbitmq: siRabbitmq.path,
  kafka: siApachekafka.path,
  kubernetes: siKubernetes.path,
  terraform: siTerraform.path,
  ansible: siAnsible.path,
  git: siGit.path,
  github: siGithub.path,
  gitlab: siGitlab.path,
  "github-actions": siGithubactions.path,
  jenkins: siJenkins.path,
  linux: siLinux.path,
  bash: siGnubash.path,
  nginx: siNginx.path,
  graphql: siGraphql.path,
  react: siReact.path,
  rails: siRubyonrails.path,
  django: siDjango.path,
  elasticsearch: siElasticsearch.path,
  prometheus: siPrometheus.path,
  grafana: siGrafana.path,
  "google-cloud": siGooglecloud.path,
};

/** The mark to draw for a tool. AWS dropped its mark from simple-icons at its own request. */
export function toolGlyph(tool: { name: string; icon: ToolIcon }): ToolGlyphData {
  if (tool.icon === "aws") return { letters: "aws" };
  if (tool.icon === "initials") return { letters: initialsOf(tool.name) };
  return { path: PATHS[tool.icon] };
}

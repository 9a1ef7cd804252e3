import { Cloud, Database, GitBranch, Server, type LucideIcon } from "lucide-react";
import { siDocker, siGithub, siInstagram, siNodedotjs, siPython, siRuby, siX } from "simple-icons";

import type { SkillIcon, SocialKind, ToolIcon } from "~/lib/site";

const skillIcons: Record<SkillIcon, LucideIcon> = {
  server: Server,
  database: Database,
  cloud: Cloud,
  "git-branch": GitBranch,
};

export function SkillGlyph({ icon, className }: { icon: SkillIcon; className?: string }) {
  const Icon = skillIcons[icon];
  return <Icon aria-hidden="true" className={className} />;
}

/** A 24×24 brand mark from simple-icons (or drawn here for the two it no longer carries). */
function BrandSvg({ path, className }: { path: string; className?: string }) {
  return (
    <svg
      viewBox="0 0 24 24"
      aria-hidden="true"
      focusable="false"
      className={className}
      fill="currentColor"
    >
      <path d={path} />
    </svg>
  );
}

// simple-icons dropped the AWS and LinkedIn marks at their owners' request; these are plain
// lettermarks instead of the logos.
function Lettermark({ text, className }: { text: string; className?: string }) {
  return (
    <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false" className={className}>
      <rect x="1" y="1" width="22" height="22" rx="4" fill="currentColor" />
      <text
        x="12"
        y="16"
        textAnchor="middle"
        fontSize={text.length > 2 ? 9 : 11}
        fontWeight="700"
        fontFamily="ui-sans-serif, system-ui, sans-serif"
        className="fill-white dark:fill-slate-900"
      >
        {text}
      </text>
    </svg>
  );
}

const toolPaths: Record<Exclude<ToolIcon, "aws">, string> = {
  nodejs: siNodedotjs.path,
  ruby: siRuby.path,
  python: siPython.path,
  docker: siDocker.path,
};

export function ToolGlyph({ icon, className }: { icon: ToolIcon; className?: string }) {
  if (icon === "aws") return <Lettermark text="aws" className={className} />;
  return <BrandSvg path={toolPaths[icon]} className={className} />;
}

export function SocialGlyph({ kind, className }: { kind: SocialKind; className?: string }) {
  switch (kind) {
    case "microblogging":
      return <BrandSvg path={siX.path} className={className} />;
    case "photo-sharing":
      return <BrandSvg path={siInstagram.path} className={className} />;
    case "code-hosting":
      return <BrandSvg path={siGithub.path} className={className} />;
    case "professional-network":
      return <Lettermark text="in" className={className} />;
  }
}

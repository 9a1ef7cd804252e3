import {
  Bot,
  ChartColumn,
  Cloud,
  Code,
  Cpu,
  Database,
  GitBranch,
  Gauge,
  Globe,
  Layers,
  Network,
  Server,
  Shield,
  Smartphone,
  SquareTerminal,
  Users,
  Workflow,
  Wrench,
  type LucideIcon,
} from "lucide-react";
import { siGithub, siInstagram, siX } from "simple-icons";

import type { SkillIcon, SocialKind } from "./icon-set";
import type { ToolGlyphData } from "./tool-icons";

const skillIcons: Record<SkillIcon, LucideIcon> = {
  server: Server,
  database: Database,
  cloud: Cloud,
  "git-branch": GitBranch,
  code: Code,
  terminal: SquareTerminal,
  cpu: Cpu,
  network: Network,
  shield: Shield,
  layers: Layers,
  workflow: Workflow,
  chart: ChartColumn,
  bot: Bot,
  smartphone: Smartphone,
  globe: Globe,
  gauge: Gauge,
  wrench: Wrench,
  users: Users,
};

export function SkillGlyph({ icon, className }: { icon: SkillIcon; className?: string }) {
  const Icon = skillIcons[icon] ?? Code;
  return <Icon aria-hidden="true" className={className} />;
}

/** A 24×24 brand mark from simple-icons. */
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

/** A tool's mark, as the server resolved it (app/features/profile/tool-icons.ts). */
export function ToolGlyph({ glyph, className }: { glyph: ToolGlyphData; className?: string }) {
  if ("letters" in glyph) return <Lettermark text={glyph.letters} className={className} />;
  return <BrandSvg path={glyph.path} className={className} />;
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
    default:
      return <Globe aria-hidden="true" className={className} />;
  }
}

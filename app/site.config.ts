import type { SiteConfig } from "~/features/site";

/**
 * What a new database's profile starts as: the owner then keeps it current at /admin/profile,
 * and this file is not read again for it. `photoUrl` and `cvUrl`, when set here (a CDN), always
 * win over uploaded files. See README, "Replace the owner".
 */
export const siteConfig: SiteConfig = {
  name: "Alex Byrne",
  title: "Backend Developer",
  location: "Dublin, Ireland",
  about: [
    "Backend developer with over five years of experience building scalable REST APIs and systems with Node.js, Ruby on Rails, PostgreSQL and Redis.",
    "I automate delivery with CI/CD, Docker and AWS, and I am interested in data analytics and AI, and in integrating hardware with the cloud.",
  ],
  email: "alex.byrne@example.com",
  socials: [
    { kind: "microblogging", label: "X (Twitter)", url: "https://x.com/example" },
    { kind: "photo-sharing", label: "Instagram", url: "https://www.instagram.com/example" },
    { kind: "code-hosting", label: "GitHub", url: "https://github.com/example" },
    { kind: "professional-network", label: "LinkedIn", url: "https://www.linkedin.com/in/example" },
  ],
  skills: [
    { name: "Backend Development", icon: "server" },
    { name: "Database Management", icon: "database" },
    { name: "Cloud Services", icon: "cloud" },
    { name: "Version Control", icon: "git-branch" },
  ],
  tools: [
    { name: "Node.js", icon: "nodejs" },
    { name: "Ruby", icon: "ruby" },
    { name: "Python", icon: "python" },
    { name: "Docker", icon: "docker" },
    { name: "AWS", icon: "aws" },
  ],
};

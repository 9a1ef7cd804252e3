/**
 * Where each form of /admin/profile posts: its section's route (app/routes.ts), whose action
 * reads that form alone. The profile form posts to the page itself.
 */
export const EDITOR_ACTIONS = {
  profile: "/admin/profile",
  photo: "/admin/profile/photo",
  cv: "/admin/profile/cv",
  experience: "/admin/profile/experience",
  education: "/admin/profile/education",
  resume: "/admin/profile/resume",
} as const;

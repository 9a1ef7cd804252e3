import { z } from "zod";

import { POST_LIMITS, textOfHtml } from "./post-rules";

/** The server's check of a post (the editor checks the same rules before sending). */
export const postSchema = z.object({
  title: z
    .string({ error: "Title must be text." })
    .trim()
    .min(1, { error: "Title is required." })
    .max(POST_LIMITS.title, { error: `Title can be at most ${POST_LIMITS.title} characters.` }),
  description: z
    .string({ error: "Description must be text." })
    .trim()
    .max(POST_LIMITS.description, {
      error: `Description can be at most ${POST_LIMITS.description} characters.`,
    })
    .nullish()
    .transform((value) => value ?? ""),
  content: z
    .string({ error: "Content must be text." })
    .refine((html) => textOfHtml(html) !== "", { error: "Content is required." }),
});

export type PostInput = z.infer<typeof postSchema>;

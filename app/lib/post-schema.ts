import { z } from "zod";

import { POST_LIMITS, textOfHtml } from "./post-rules";

/** PostgreSQL text cannot hold U+0000, and no editor produces it. */
const noNull = (value: string) => !value.includes("\0");

/** The server's check of a post (the editor checks the same rules before sending). */
export const postSchema = z.object({
  title: z
    .string({ error: "Title must be text." })
    .trim()
    .min(1, { error: "Title is required." })
    .max(POST_LIMITS.title, { error: `Title can be at most ${POST_LIMITS.title} characters.` })
    .refine(noNull, { error: "Title contains a null character." }),
  description: z
    .string({ error: "Description must be text." })
    .trim()
    .max(POST_LIMITS.description, {
      error: `Description can be at most ${POST_LIMITS.description} characters.`,
    })
    .refine(noNull, { error: "Description contains a null character." })
    .nullish()
    .transform((value) => value ?? ""),
  content: z
    .string({ error: "Content must be text." })
    .refine(noNull, { error: "Content contains a null character.", abort: true })
    .refine((html) => textOfHtml(html) !== "", { error: "Content is required." }),
});

export type PostInput = z.infer<typeof postSchema>;

import { appContext } from "~/context";
import { exportFileName, exportStream } from "~/features/posts/index.server";

import type { Route } from "./+types/admin.posts-export";

/**
 * GET /admin/posts/export.zip: every post as Markdown with its images, one zip streamed as it
 * is written (app/features/posts/export.server.ts).
 */
export function loader({ context }: Route.LoaderArgs) {
  const { db } = context.get(appContext);
  return new Response(exportStream(db), {
    headers: {
      "Content-Type": "application/zip",
      "Content-Disposition": `attachment; filename="${exportFileName(new Date())}"`,
    },
  });
}

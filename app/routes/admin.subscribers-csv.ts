import { appContext } from "~/context";
import { exportSubscribers } from "~/features/subscribers/index.server";

import type { Route } from "./+types/admin.subscribers-csv";

/** GET /admin/subscribers.csv: every address, as a CSV file to download. */
export async function loader({ context }: Route.LoaderArgs) {
  const { db } = context.get(appContext);
  return new Response(await exportSubscribers(db), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": 'attachment; filename="subscribers.csv"',
    },
  });
}

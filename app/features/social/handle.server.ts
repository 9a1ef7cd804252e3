import type { Database } from "../../../database/db.server";
import { profile } from "../../../database/schema";
import { siteConfig } from "~/site.config";
import { defaultHandle } from "./handle";

/**
 * The owner's handle: the profile's, or the one made from the configured name (site.config.ts,
 * not the profile's name: renaming oneself must not move the address followers know).
 */
export async function ownerHandle(db: Database): Promise<string> {
  const [row] = await db.select({ handle: profile.fediverseHandle }).from(profile).limit(1);
  return row?.handle ?? defaultHandle(siteConfig.name);
}

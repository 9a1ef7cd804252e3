import type { JobHandler } from "~/lib/jobs.server";

import { WEBMENTION_RECEIVE_JOBS } from "./receive.server";
import { WEBMENTION_SEND_JOBS } from "./send.server";

/** The Webmention jobs (receiving and sending), for the site's job worker (server/jobs.ts). */
export const WEBMENTION_JOBS: readonly JobHandler[] = [
  ...WEBMENTION_RECEIVE_JOBS,
  ...WEBMENTION_SEND_JOBS,
];

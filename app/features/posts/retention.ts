/** Days a trashed post is kept before it is purged. */
export const TRASH_DAYS = 30;
/** Days an automatic revision is kept. */
export const AUTO_REVISION_DAYS = 30;

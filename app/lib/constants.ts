/**
 * The numbers the product names for its pages (docs/product.md, Constants). Limits the server
 * enforces live with their features; app/lib/limits.ts says where.
 */

/** Blog list page size. */
export const PAGE_SIZE = 5;
/** The Back to top button shows once the page is scrolled more than this (px). */
export const BACK_TO_TOP_THRESHOLD_PX = 300;
/** Default time a toast stays visible (ms). */
export const TOAST_DEFAULT_DURATION_MS = 3000;
/** What the contact form passes to its toast (ms). */
export const CONTACT_TOAST_DURATION_MS = 1500;
/** A toast calls its close handler this long after it starts hiding (ms). */
export const TOAST_CLOSE_DELAY_MS = 300;
/** The header's About Me button scrolls this long after navigating (ms). */
export const HEADER_SCROLL_DELAY_MS = 100;
/** Longer blog search texts are cut to this many characters. */
export const SEARCH_MAX_LENGTH = 200;

import { errorMessage } from "./log.server";

/**
 * A read whose failure must not break the page: the error is logged under `label` (the
 * original's console texts, e.g. "Error fetching experiences:") and the list is empty.
 */
export function emptyOnError<T>(
  read: Promise<T[]>,
  label: string,
  /** Told when the read failed: the page is incomplete and must not be cached. */
  onError?: () => void,
): Promise<T[]> {
  return read.catch((error: unknown) => {
    console.error(label, errorMessage(error));
    onError?.();
    return [];
  });
}

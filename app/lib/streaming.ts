/**
 * True for React Router's own data requests (a client-side navigation), false for a document.
 * Browsers mark fetch() calls with `Sec-Fetch-Dest: empty`; crawlers, curl and documents do not.
 * Loaders stream slow parts only to the former, so a document is complete in its first paint
 * and without JavaScript: loading texts are pending UI only (docs/product.md#server-rendering).
 */
export function isClientNavigation(request: Request): boolean {
  return request.headers.get("sec-fetch-dest") === "empty";
}

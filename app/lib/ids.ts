/** Ids (posts, messages) are PostgreSQL serials: 1 to 2^31 - 1, written plainly. Anything else is no id. */
export function parseSerialId(raw: string | undefined): number | null {
  if (!raw || !/^[1-9]\d{0,9}$/.test(raw)) return null;
  const id = Number(raw);
  return id <= 2_147_483_647 ? id : null;
}

/**
 * The profile's lists (links, skills, tools) travel in its form as fields named
 * `{list}.{row}.{field}` ("socials.2.url"): a row's number is its place in the form the owner
 * saw, so an error names the field they see. Read here for both ends: the server's check, and
 * the editor showing a refused save again without JavaScript.
 */

export type ListName = "socials" | "skills" | "tools";

/** One submitted row: its number in the form, and its fields (empty when absent). */
export type ListRow<Field extends string> = { number: number; item: Record<Field, string> };

export const listFieldName = (list: ListName, row: number, field: string) =>
  `${list}.${row}.${field}`;

/** A list's rows among a form's `values`, in row order. */
export function readListRows<Field extends string>(
  values: Readonly<Record<string, string>>,
  list: ListName,
  fields: readonly Field[],
): ListRow<Field>[] {
  const pattern = new RegExp(`^${list}\\.(\\d{1,3})\\.`);
  const numbers = new Set<number>();
  for (const key of Object.keys(values)) {
    const match = pattern.exec(key);
    if (match) numbers.add(Number(match[1]));
  }
  return [...numbers]
    .sort((a, b) => a - b)
    .map((number) => {
      const item = {} as Record<Field, string>;
      for (const field of fields) item[field] = values[listFieldName(list, number, field)] ?? "";
      return { number, item };
    });
}

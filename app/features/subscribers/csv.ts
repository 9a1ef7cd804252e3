/**
 * A small RFC 4180 reader and writer for the subscriber list's import and export: fields
 * separated by commas, rows by CRLF (LF read too), a field in double quotes may hold commas,
 * line breaks and doubled quotes.
 */

/** The rows of a CSV text, each a list of fields; a trailing line break adds no row. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0; // a byte order mark is no data
  const endField = () => {
    row.push(field);
    field = "";
  };
  const endRow = () => {
    endField();
    rows.push(row);
    row = [];
  };
  for (; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c !== '"') field += c;
      else if (text[i + 1] === '"') {
        field += '"';
        i++;
      } else quoted = false;
    } else if (c === '"' && field === "") quoted = true;
    else if (c === ",") endField();
    else if (c === "\n" || c === "\r") {
      if (c === "\r" && text[i + 1] === "\n") i++;
      endRow();
    } else field += c;
  }
  if (field !== "" || row.length > 0 || quoted) endRow();
  return rows;
}

/**
 * One field as CSV: quoted when it holds a comma, quote or line break. A field starting with
 * `=`, `+`, `-`, `@` (a formula to a spreadsheet) gets a leading `'` (OWASP's CSV injection).
 */
function csvField(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** Rows as CSV text, CRLF after each row. */
export const toCsv = (rows: readonly (readonly string[])[]) =>
  rows.map((row) => row.map(csvField).join(",") + "\r\n").join("");

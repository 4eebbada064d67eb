/**
 * CSV for people who open it in a spreadsheet: RFC 4180 quoting, and a cell that starts with
 * = + - @ (or a tab or carriage return) gets a leading ' so that a spreadsheet shows it as text
 * instead of running it as a formula (OWASP, CSV injection).
 */
const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: unknown): string {
  let text = value === undefined || value === null ? '' : String(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function toCsv(header: readonly string[], rows: readonly (readonly unknown[])[]): string {
  return [header, ...rows].map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n';
}

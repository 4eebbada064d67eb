import type { RowError } from '../base/index.js';

/**
 * One rejected record for people: `file:line  field: message`. Messages made by the mapping already
 * start with their field (`Description: required, but empty`), so the field is not repeated then.
 */
export function rowErrorText(e: RowError, file: string = e.file): string {
  const field = e.field === undefined || e.message.startsWith(`${e.field}:`) ? '' : `${e.field}: `;
  return `${file}:${e.line}  ${field}${e.message}`;
}

/**
 * Turns the SAX events inside one record element into fields: the record's attributes as
 * `@name`; each descendant element's text under its path from the record (`Price`,
 * `Address.City`), its attributes as `path@name`; text directly in the record element as `#text`.
 * A name that repeats gets `[2]`, `[3]`... so that nothing is dropped. Names holding invisible
 * characters are refused or stripped (the `invisibleInNames` option) when the record closes.
 */
import { cleanFieldNames, type InvisibleMode } from '../text/invisible-chars.js';

interface Open {
  key: string;
  text: string;
  hasChildren: boolean;
}

export interface BuiltRecord {
  fields: Record<string, string>;
  line: number;
  problem?: { field?: string; message: string };
}

export function localName(name: string): string {
  const colon = name.indexOf(':');
  return colon === -1 ? name : name.slice(colon + 1);
}

export class RecordBuilder {
  private readonly fields: Record<string, string> = {};
  private readonly open: Open[] = [{ key: '', text: '', hasChildren: false }];
  private problem: BuiltRecord['problem'];

  constructor(
    readonly line: number,
    attributes: Record<string, string>,
    private readonly maxFieldBytes: number,
    private readonly invisible: InvisibleMode,
  ) {
    this.putAttributes('', attributes);
  }

  openElement(name: string, attributes: Record<string, string>): void {
    const parent = this.open[this.open.length - 1]!;
    parent.hasChildren = true;
    const key = parent.key ? `${parent.key}.${localName(name)}` : localName(name);
    this.open.push({ key, text: '', hasChildren: false });
    this.putAttributes(key, attributes);
  }

  /** The element just opened had more attributes than the limit: the record is not read. */
  tooManyAttributes(name: string, line: number, count: number, max: number): void {
    const key = this.open[this.open.length - 1]!.key;
    this.problem ??= {
      ...(key ? { field: key } : {}),
      message:
        `the element <${name}> (line ${line}) has ${count} attributes, more than maxAttributes ` +
        `(${max}): the record was not read`,
    };
  }

  text(text: string): void {
    const el = this.open[this.open.length - 1]!;
    if (this.problem?.field === el.key) return;
    el.text += text;
    if (
      el.text.length * 3 > this.maxFieldBytes &&
      Buffer.byteLength(el.text) > this.maxFieldBytes
    ) {
      this.problem ??= {
        field: el.key || '#text',
        message: `the text is larger than maxFieldBytes (${this.maxFieldBytes} bytes): it was not read`,
      };
      el.text = '';
    }
  }

  /** Closes an element; returns the record when it was the record element itself. */
  closeElement(): BuiltRecord | undefined {
    const el = this.open.pop()!;
    if (this.open.length === 0) {
      if (el.text.trim() !== '') this.put('#text', el.text);
      if (this.problem) return { fields: {}, line: this.line, problem: this.problem };
      const named = cleanFieldNames(this.fields, this.invisible);
      if ('message' in named) return { fields: {}, line: this.line, problem: named };
      return { fields: named.fields, line: this.line };
    }
    if (!el.hasChildren || el.text.trim() !== '') this.put(el.key, el.text);
    return undefined;
  }

  private putAttributes(key: string, attributes: Record<string, string>): void {
    for (const [name, value] of Object.entries(attributes)) this.put(`${key}@${name}`, value);
  }

  private put(key: string, value: string): void {
    let k = key;
    for (let n = 2; Object.hasOwn(this.fields, k) || k === '__proto__'; n++) k = `${key}[${n}]`;
    this.fields[k] = value;
  }
}

/**
 * Turns the SAX events inside one record element into fields: the record's attributes as
 * `@name`; each descendant element's text under its path from the record (`Price`,
 * `Address.City`), its attributes as `path@name`; text directly in the record element as `#text`.
 * A name that repeats gets `[2]`, `[3]`... so that nothing is dropped. Names holding invisible
 * characters are refused or stripped (the `invisibleInNames` option) when the record closes.
 */
import { BoundedText, isOversized, oversizedMessage, type Oversized } from '../bounded-text.js';
import { cleanFieldNames, type InvisibleMode } from '../text/invisible-chars.js';

interface Open {
  key: string;
  /** Its text so far, held up to maxFieldBytes (past it only counted). */
  text: BoundedText;
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

/** The xml options of the same names. */
export interface RecordLimits {
  maxFieldBytes: number;
  maxRecordBytes: number;
}

export class RecordBuilder {
  private fields: Record<string, string> = {};
  private readonly open: Open[];
  private problem: BuiltRecord['problem'];
  /** UTF-8 bytes of the record's names and values so far (counted on past maxRecordBytes). */
  private bytes = 0;

  constructor(
    readonly line: number,
    attributes: Record<string, string>,
    private readonly limits: RecordLimits,
    private readonly invisible: InvisibleMode,
  ) {
    this.open = [this.element('')];
    this.putAttributes('', attributes);
  }

  private element(key: string): Open {
    return { key, text: new BoundedText(this.limits.maxFieldBytes), hasChildren: false };
  }

  private get overRecord(): boolean {
    return this.bytes > this.limits.maxRecordBytes;
  }

  openElement(name: string, attributes: Record<string, string>): void {
    const parent = this.open[this.open.length - 1]!;
    parent.hasChildren = true;
    const key = parent.key ? `${parent.key}.${localName(name)}` : localName(name);
    this.open.push(this.element(key));
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

  /** An attribute of the element just opened was over maxFieldBytes: the record is not read. */
  oversizedAttribute(element: string, attribute: Oversized & { name: string }, max: number): void {
    const key = this.open[this.open.length - 1]!.key;
    this.problem ??= {
      field: `${key}@${attribute.name}`,
      message: oversizedMessage(
        `the attribute ${attribute.name} of <${element}>`,
        attribute,
        'xml',
        'maxFieldBytes',
        max,
      ),
    };
  }

  /** Text of the element open now (a long text comes in pieces). */
  text(text: string): void {
    this.open[this.open.length - 1]!.text.append(text);
  }

  /** The element's text; over maxFieldBytes, the record's problem (naming its size) and ''. */
  private takeText(el: Open): string {
    const text = el.text.take();
    if (!isOversized(text)) return text;
    this.bytes += text.bytes;
    this.problem ??= {
      field: el.key || '#text',
      message: oversizedMessage(
        'the text',
        text,
        'xml',
        'maxFieldBytes',
        this.limits.maxFieldBytes,
      ),
    };
    return '';
  }

  /** Closes an element; returns the record when it was the record element itself. */
  closeElement(): BuiltRecord | undefined {
    const el = this.open.pop()!;
    const text = this.takeText(el);
    if (this.open.length === 0) {
      if (text.trim() !== '') this.put('#text', text);
      if (this.overRecord && !this.problem) {
        const { maxRecordBytes } = this.limits;
        const message = oversizedMessage(
          'the record',
          { bytes: this.bytes },
          'xml',
          'maxRecordBytes',
          maxRecordBytes,
        );
        return { fields: {}, line: this.line, problem: { message } };
      }
      if (this.problem) return { fields: {}, line: this.line, problem: this.problem };
      const named = cleanFieldNames(this.fields, this.invisible);
      if ('message' in named) return { fields: {}, line: this.line, problem: named };
      return { fields: named.fields, line: this.line };
    }
    if (!el.hasChildren || text.trim() !== '') this.put(el.key, text);
    return undefined;
  }

  private putAttributes(key: string, attributes: Record<string, string>): void {
    for (const [name, value] of Object.entries(attributes)) this.put(`${key}@${name}`, value);
  }

  /** A field; past maxRecordBytes the fields are dropped and only counted. */
  private put(key: string, value: string): void {
    this.bytes += Buffer.byteLength(key) + Buffer.byteLength(value);
    if (this.overRecord) {
      this.fields = {};
      return;
    }
    let k = key;
    for (let n = 2; Object.hasOwn(this.fields, k) || k === '__proto__'; n++) k = `${key}[${n}]`;
    this.fields[k] = value;
  }
}

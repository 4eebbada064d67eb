/**
 * An incremental CSV parser (RFC 4180 plus the quirks of real exports), fed decoded text chunk by
 * chunk. Lines end with LF, CRLF or a lone CR (as some spreadsheet programs write), mixed in one
 * file too. It keeps the physical line on which each record starts (line breaks inside quoted
 * fields count), and it bounds memory: a field over `maxFieldBytes` is dropped as it streams in (the
 * record becomes a problem row), a record over `maxRecordBytes` drops its values (it becomes a
 * problem row too) and a record keeps at most `maxFields` values.
 * Hand-written rather than csv-parse because the speed goal needs a tight charCode loop, and
 * because an oversized field must be skipped and reading go on, not end the parse.
 */
import {
  BoundedText,
  checkedSize,
  isOversized,
  oversizedMessage,
  type Oversized,
} from '../bounded-text.js';

export interface CsvParserOptions {
  delimiter: string;
  quote: string;
  maxFieldBytes: number;
  /** A record whose values add up to more than this is a problem row (its values dropped). */
  maxRecordBytes: number;
  /** Values kept per record; the ones past it are only counted (memory stays bounded). */
  maxFields: number;
  /** Physical line number of the first line of text fed. */
  firstLine: number;
}

export interface CsvProblem {
  /** 0-based column of the field at fault, when one is. */
  column?: number;
  message: string;
}

export interface CsvRow {
  values: string[];
  /** Number of fields the record had (values past maxFields are counted, not kept). */
  fieldCount: number;
  /** A field past maxFields held a value (else they were all empty: a trailing delimiter). */
  extraValue?: boolean;
  line: number;
  problem?: CsvProblem;
}

const NL = 10;
const CR = 13;

const enum State {
  FieldStart,
  Unquoted,
  Quoted,
  /** A quote inside a quoted field: doubled (a literal quote) or the end of the field. */
  QuoteSeen,
}

export class CsvParser {
  private readonly delim: number;
  private readonly quote: number;
  private readonly quoteChar: string;
  private readonly maxFieldBytes: number;
  private readonly maxRecordBytes: number;
  /** May be lowered once the header is known (values past the header's count are only counted). */
  maxFields: number;

  private state = State.FieldStart;
  private line: number;
  private recordLine: number;
  private values: string[] = [];
  private fieldCount = 0;
  /** Pieces of the current field that began in an earlier chunk (or around doubled quotes). */
  private readonly field: BoundedText;
  /** UTF-16 units of the record's values so far (a unit is at least one UTF-8 byte). */
  private recordUnits = 0;
  /** UTF-8 bytes of the record once over maxRecordBytes (its values then dropped); -1 under it. */
  private recordBytes = -1;
  private extraValue = false;
  private problem: CsvProblem | undefined;
  /** The last chunk ended with a CR that ended a line: an LF starting the next is its pair. */
  private pendingLf = false;
  /** The last chunk ended inside a quoted field with a CR: counts as a line unless an LF follows. */
  private quotedCr = false;

  constructor(options: CsvParserOptions) {
    this.delim = options.delimiter.charCodeAt(0);
    this.quote = options.quote.charCodeAt(0);
    this.quoteChar = options.quote;
    this.maxFieldBytes = options.maxFieldBytes;
    this.maxRecordBytes = options.maxRecordBytes;
    this.field = new BoundedText(options.maxFieldBytes);
    this.maxFields = options.maxFields;
    this.line = options.firstLine;
    this.recordLine = options.firstLine;
  }

  /** Parses a chunk; complete records are appended to `out`. */
  push(text: string, out: CsvRow[]): void {
    const len = text.length;
    const d = this.delim;
    const q = this.quote;
    let state = this.state;
    let i = 0;
    if (this.pendingLf && len > 0) {
      if (text.charCodeAt(0) === NL) i = 1;
      this.pendingLf = false;
    }
    if (this.quotedCr && len > 0) {
      if (text.charCodeAt(0) !== NL) this.line++;
      this.quotedCr = false;
    }
    let start = i;
    while (i < len) {
      if (state === State.FieldStart) {
        const c = text.charCodeAt(i);
        if (c === q) {
          state = State.Quoted;
          start = ++i;
          continue;
        }
        if (c === d) {
          this.addValue('');
          i++;
          continue;
        }
        if (c === NL || c === CR) {
          if (this.fieldCount > 0) this.addValue('');
          this.endRecord(out);
          i = this.afterLineEnd(text, i);
          continue;
        }
        state = State.Unquoted;
        start = i;
      }
      if (state === State.Unquoted) {
        let j = i;
        let c = 0;
        for (; j < len; j++) {
          c = text.charCodeAt(j);
          if (c === d || c === NL || c === CR) break;
        }
        if (j === len) {
          this.appendPart(text, start, len);
          i = len;
          break;
        }
        this.addValue(this.takeField(text, start, j));
        state = State.FieldStart;
        if (c === d) i = j + 1;
        else {
          this.endRecord(out);
          i = this.afterLineEnd(text, j);
        }
        continue;
      }
      if (state === State.Quoted) {
        const k = text.indexOf(this.quoteChar, i);
        const end = k === -1 ? len : k;
        for (let n = text.indexOf('\n', i); n !== -1 && n < end; n = text.indexOf('\n', n + 1)) {
          this.line++;
        }
        this.countLoneCrs(text, i, end);
        this.appendPart(text, start, end);
        if (k === -1) {
          i = len;
          break;
        }
        state = State.QuoteSeen;
        i = k + 1;
        continue;
      }
      // State.QuoteSeen
      const c = text.charCodeAt(i);
      if (c === q) {
        this.appendPart(text, i, i + 1); // a doubled quote: one literal quote
        state = State.Quoted;
        start = ++i;
      } else if (c === d) {
        this.addValue(this.takeField(text, 0, 0));
        state = State.FieldStart;
        i++;
      } else if (c === NL || c === CR) {
        this.addValue(this.takeField(text, 0, 0));
        this.endRecord(out);
        state = State.FieldStart;
        i = this.afterLineEnd(text, i);
      } else {
        this.problem ??= {
          column: this.fieldCount,
          message: `text after the closing quote of a quoted field (a quote inside a quoted field must be doubled: "")`,
        };
        state = State.Unquoted;
        start = i;
      }
    }
    this.state = state;
  }

  /** Ends the input: the last record may have no line break. */
  end(out: CsvRow[]): void {
    if (this.state === State.Quoted) {
      this.problem ??= {
        column: this.fieldCount,
        message: `a quoted field opened on line ${this.recordLine} is never closed (truncated file, or a stray quote)`,
      };
    }
    if (this.state !== State.FieldStart || this.fieldCount > 0) {
      this.addValue(this.takeField('', 0, 0));
      this.endRecord(out);
    }
    this.state = State.FieldStart;
  }

  /** Index past the line break at `i` (CR, LF or CRLF; a CR ending the chunk may pair with an LF). */
  private afterLineEnd(text: string, i: number): number {
    if (text.charCodeAt(i) !== CR) return i + 1;
    if (i + 1 === text.length) {
      this.pendingLf = true;
      return i + 1;
    }
    return text.charCodeAt(i + 1) === NL ? i + 2 : i + 1;
  }

  /** Counts the lone CRs (line breaks of a CR-only file) inside quoted text [from, end). */
  private countLoneCrs(text: string, from: number, end: number): void {
    for (let r = text.indexOf('\r', from); r !== -1 && r < end; r = text.indexOf('\r', r + 1)) {
      if (r + 1 === text.length) this.quotedCr = true;
      else if (text.charCodeAt(r + 1) !== NL) this.line++;
    }
  }

  private appendPart(text: string, start: number, end: number): void {
    this.field.append(text, start, end);
  }

  /**
   * The field ending at `end`, joined with its pieces from earlier chunks; '' with the record's
   * problem when it is over maxFieldBytes (its size counted, its text never held).
   */
  private takeField(text: string, start: number, end: number): string {
    let value: string | Oversized;
    if (this.field.empty) value = checkedSize(text.slice(start, end), this.maxFieldBytes);
    else {
      this.field.append(text, start, end);
      value = this.field.take();
    }
    if (!isOversized(value)) return value;
    this.problem ??= {
      column: this.fieldCount,
      message: oversizedMessage('the field', value, 'csv', 'maxFieldBytes', this.maxFieldBytes),
    };
    return '';
  }

  private addValue(value: string): void {
    this.fieldCount++;
    if (this.recordBytes !== -1) {
      this.recordBytes += Buffer.byteLength(value);
      return;
    }
    this.recordUnits += value.length;
    if (this.recordUnits > this.maxRecordBytes) {
      this.recordBytes = valuesBytes(this.values) + Buffer.byteLength(value);
      this.values = [];
      return;
    }
    if (this.fieldCount <= this.maxFields) this.values.push(value);
    else if (value !== '') this.extraValue = true;
  }

  /** The record's size when it is over maxRecordBytes, else -1. */
  private oversizedRecord(): number {
    if (this.recordBytes !== -1 || this.recordUnits * 3 <= this.maxRecordBytes) {
      return this.recordBytes;
    }
    const bytes = valuesBytes(this.values);
    return bytes > this.maxRecordBytes ? bytes : -1;
  }

  private endRecord(out: CsvRow[]): void {
    const bytes = this.oversizedRecord();
    if (bytes !== -1) {
      const limit = this.maxRecordBytes;
      const message = oversizedMessage('the record', { bytes }, 'csv', 'maxRecordBytes', limit);
      this.problem ??= { message };
      this.values = [];
    }
    this.recordUnits = 0;
    this.recordBytes = -1;
    const row: CsvRow = { values: this.values, fieldCount: this.fieldCount, line: this.recordLine };
    if (this.problem) row.problem = this.problem;
    if (this.extraValue) row.extraValue = true;
    out.push(row);
    this.values = [];
    this.fieldCount = 0;
    this.extraValue = false;
    this.problem = undefined;
    this.line++;
    this.recordLine = this.line;
  }
}

function valuesBytes(values: readonly string[]): number {
  let bytes = 0;
  for (const value of values) bytes += Buffer.byteLength(value);
  return bytes;
}

/**
 * An incremental CSV parser (RFC 4180 plus the quirks of real exports), fed decoded text chunk by
 * chunk. It keeps the physical line on which each record starts (line breaks inside quoted fields
 * count), and it bounds memory: a field over `maxFieldBytes` is dropped as it streams in (the
 * record becomes a problem row) and a record keeps at most `maxFields` values.
 * Hand-written rather than csv-parse because the speed goal needs a tight charCode loop, and
 * because an oversized field must be skipped and reading go on, not end the parse.
 */

export interface CsvParserOptions {
  delimiter: string;
  quote: string;
  maxFieldBytes: number;
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
  /** May be lowered once the header is known (values past the header's count are only counted). */
  maxFields: number;

  private state = State.FieldStart;
  private line: number;
  private recordLine: number;
  private values: string[] = [];
  private fieldCount = 0;
  /** Pieces of the current field that began in an earlier chunk (or around doubled quotes). */
  private parts: string[] = [];
  private partsLength = 0;
  private oversized = false;
  private problem: CsvProblem | undefined;

  constructor(options: CsvParserOptions) {
    this.delim = options.delimiter.charCodeAt(0);
    this.quote = options.quote.charCodeAt(0);
    this.quoteChar = options.quote;
    this.maxFieldBytes = options.maxFieldBytes;
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
    let start = 0;
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
        if (c === NL) {
          if (this.fieldCount > 0) this.addValue('');
          this.endRecord(out);
          i++;
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
          if (c === d || c === NL) break;
        }
        if (j === len) {
          this.appendPart(text, start, len);
          i = len;
          break;
        }
        let end = j;
        if (c === NL && end > start && text.charCodeAt(end - 1) === CR) end--;
        this.addValue(this.takeField(text, start, end, c === NL));
        if (c === NL) this.endRecord(out);
        state = State.FieldStart;
        i = j + 1;
        continue;
      }
      if (state === State.Quoted) {
        const k = text.indexOf(this.quoteChar, i);
        const end = k === -1 ? len : k;
        for (let n = text.indexOf('\n', i); n !== -1 && n < end; n = text.indexOf('\n', n + 1)) {
          this.line++;
        }
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
      } else if (c === NL) {
        this.addValue(this.takeField(text, 0, 0));
        this.endRecord(out);
        state = State.FieldStart;
        i++;
      } else if (c === CR) {
        i++;
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
      this.addValue(this.takeField('', 0, 0, this.state === State.Unquoted));
      this.endRecord(out);
    }
    this.state = State.FieldStart;
  }

  private appendPart(text: string, start: number, end: number): void {
    if (end <= start) return;
    this.partsLength += end - start;
    if (this.oversized) return;
    // A UTF-16 unit is at least one UTF-8 byte: past the limit in units is past it in bytes.
    if (this.partsLength > this.maxFieldBytes) {
      this.oversized = true;
      this.parts = [];
      return;
    }
    this.parts.push(text.slice(start, end));
  }

  /**
   * The field ending at `end`, joined with its pieces from earlier chunks. `lineEnd`: an unquoted
   * field that ends a line, whose CR (of a CRLF cut by a chunk boundary) is dropped.
   */
  private takeField(text: string, start: number, end: number, lineEnd = false): string {
    let value: string;
    if (this.partsLength === 0) value = text.slice(start, end);
    else {
      this.appendPart(text, start, end);
      value = this.oversized ? '' : this.parts.join('');
      if (lineEnd && value.charCodeAt(value.length - 1) === CR) value = value.slice(0, -1);
      this.parts = [];
      this.partsLength = 0;
    }
    if (
      this.oversized ||
      (value.length * 3 > this.maxFieldBytes && Buffer.byteLength(value) > this.maxFieldBytes)
    ) {
      this.problem ??= {
        column: this.fieldCount,
        message: `the field is larger than maxFieldBytes (${this.maxFieldBytes} bytes): it was not read`,
      };
      this.oversized = false;
      return '';
    }
    return value;
  }

  private addValue(value: string): void {
    if (this.fieldCount < this.maxFields) this.values.push(value);
    this.fieldCount++;
  }

  private endRecord(out: CsvRow[]): void {
    const row: CsvRow = { values: this.values, fieldCount: this.fieldCount, line: this.recordLine };
    if (this.problem) row.problem = this.problem;
    out.push(row);
    this.values = [];
    this.fieldCount = 0;
    this.problem = undefined;
    this.line++;
    this.recordLine = this.line;
  }
}

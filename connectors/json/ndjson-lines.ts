/**
 * Splits text into lines, streamed, with each line's physical number. A line longer than
 * `maxBytes` is dropped as it streams in (reported as oversized), so memory stays bounded.
 */

export interface TextPiece {
  line: number;
  /** Undefined when the piece was over the size limit. */
  text?: string;
}

export class LineSplitter {
  private carry: string[] = [];
  private carryLength = 0;
  private oversized = false;
  private line = 1;

  constructor(private readonly maxBytes: number) {}

  push(text: string, out: TextPiece[]): void {
    let start = 0;
    for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', start)) {
      this.append(text, start, nl);
      this.emit(out);
      start = nl + 1;
    }
    this.append(text, start, text.length);
  }

  end(out: TextPiece[]): void {
    if (this.carryLength > 0) this.emit(out);
  }

  private append(text: string, start: number, end: number): void {
    if (end <= start) return;
    this.carryLength += end - start;
    if (this.oversized) return;
    if (this.carryLength > this.maxBytes) {
      this.oversized = true;
      this.carry = [];
      return;
    }
    this.carry.push(text.slice(start, end));
  }

  private emit(out: TextPiece[]): void {
    let text = this.oversized ? undefined : this.carry.join('');
    if (
      text !== undefined &&
      text.length * 3 > this.maxBytes &&
      Buffer.byteLength(text) > this.maxBytes
    )
      text = undefined;
    if (text === undefined) out.push({ line: this.line });
    else if (text.trim() !== '') out.push({ line: this.line, text });
    this.carry = [];
    this.carryLength = 0;
    this.oversized = false;
    this.line++;
  }
}

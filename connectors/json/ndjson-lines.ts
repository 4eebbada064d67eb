import { BoundedText, isOversized, type Oversized } from '../bounded-text.js';

/**
 * Splits text into lines, streamed, with each line's physical number. A line longer than
 * `maxBytes` is dropped as it streams in (reported as oversized), so memory stays bounded.
 */

export interface TextPiece {
  line: number;
  /** The text, or its size when it was over the limit (the text was not kept). */
  text: string | Oversized;
}

export class LineSplitter {
  private readonly carry: BoundedText;
  private line = 1;

  constructor(maxBytes: number) {
    this.carry = new BoundedText(maxBytes);
  }

  push(text: string, out: TextPiece[]): void {
    let start = 0;
    for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', start)) {
      this.carry.append(text, start, nl);
      this.emit(out);
      start = nl + 1;
    }
    this.carry.append(text, start, text.length);
  }

  end(out: TextPiece[]): void {
    if (!this.carry.empty) this.emit(out);
  }

  private emit(out: TextPiece[]): void {
    const text = this.carry.take();
    if (isOversized(text) || text.trim() !== '') out.push({ line: this.line, text });
    this.line++;
  }
}

/**
 * Finds the elements of one top-level JSON array in streamed text, without parsing the whole
 * document: it tracks strings and nesting depth, and hands out each element's text with the line
 * on which it starts. An element over `maxBytes` is dropped as it streams in (memory stays
 * bounded). Broken structure (no array, a missing comma, an array never closed) is a
 * ConnectorError: past it, where records begin cannot be known.
 */
import { BoundedText } from '../bounded-text.js';
import { ConnectorError } from '../errors.js';
import type { TextPiece } from './ndjson-lines.js';

const NL = 10;
const QUOTE = 34;
const BACKSLASH = 92;
const COMMA = 44;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;

function isSpace(c: number): boolean {
  return c === 32 || c === NL || c === 13 || c === 9;
}

const enum Where {
  BeforeArray,
  /** Inside the array, between elements. */
  Between,
  InElement,
  AfterArray,
}

export class ArrayScanner {
  private where = Where.BeforeArray;
  private line = 1;
  private depth = 0;
  private inString = false;
  private escape = false;
  private scalar = false;
  /** An element was read and no comma has followed yet. */
  private needComma = false;
  private elementLine = 0;
  private readonly element: BoundedText;

  constructor(
    maxBytes: number,
    private readonly name: string,
  ) {
    this.element = new BoundedText(maxBytes);
  }

  push(text: string, out: TextPiece[]): void {
    let segStart = 0;
    const len = text.length;
    for (let i = 0; i < len; i++) {
      const c = text.charCodeAt(i);
      if (c === NL) this.line++;
      if (this.inString) {
        if (this.escape) this.escape = false;
        else if (c === BACKSLASH) this.escape = true;
        else if (c === QUOTE) this.inString = false;
        continue;
      }
      if (this.where === Where.InElement) {
        if (this.scalar) {
          if (c === COMMA || c === CLOSE_BRACKET || isSpace(c)) {
            this.finish(text, segStart, i, out);
            i--; // the delimiter is read again, between elements
            if (c === NL) this.line--;
          } else if (c === QUOTE) this.inString = true;
          continue;
        }
        if (c === QUOTE) this.inString = true;
        else if (c === OPEN_BRACE || c === OPEN_BRACKET) this.depth++;
        else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
          if (--this.depth === 0) this.finish(text, segStart, i + 1, out);
        }
        continue;
      }
      if (isSpace(c)) continue;
      if (this.where === Where.Between) {
        if (c === CLOSE_BRACKET) this.where = Where.AfterArray;
        else if (c === COMMA && this.needComma) this.needComma = false;
        else if (this.needComma || c === COMMA) this.structureError(c);
        else {
          this.where = Where.InElement;
          this.elementLine = this.line;
          segStart = i;
          this.scalar = c !== OPEN_BRACE && c !== OPEN_BRACKET;
          this.depth = this.scalar ? 0 : 1;
          if (c === QUOTE) this.inString = true;
        }
      } else if (this.where === Where.BeforeArray) {
        if (c !== OPEN_BRACKET) this.structureError(c);
        this.where = Where.Between;
      } else this.structureError(c);
    }
    if (this.where === Where.InElement) this.element.append(text, segStart, len);
  }

  /** Ends the input; the array must have been closed. */
  end(): void {
    if (this.where === Where.Between || this.where === Where.InElement) {
      throw new ConnectorError(
        `${this.name}: the JSON array is not closed (the file ends on line ${this.line}): a truncated file?`,
        { file: this.name, line: this.line },
      );
    }
  }

  private structureError(c: number): never {
    const found = JSON.stringify(String.fromCharCode(c));
    const expected =
      this.where === Where.BeforeArray
        ? 'the [ that opens the array'
        : this.where === Where.AfterArray
          ? 'nothing after the array'
          : this.needComma
            ? 'a comma or ] after the record'
            : 'a record';
    throw new ConnectorError(
      `${this.name}: line ${this.line} has ${found} where ${expected} was expected: not a JSON array of records?`,
      { file: this.name, line: this.line },
    );
  }

  private finish(text: string, start: number, end: number, out: TextPiece[]): void {
    this.element.append(text, start, end);
    out.push({ line: this.elementLine, text: this.element.take() });
    this.where = Where.Between;
    this.needComma = true;
  }
}

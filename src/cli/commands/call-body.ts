/** `ferry call --body JSON|@file`: the body, or a usage error naming the file, line and column. */
import { readFileSync } from 'node:fs';
import { UsageError } from '../../errors/index.js';

const NUMBER_OR_LITERAL = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null/y;
const ESCAPE = /\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})/y;

/**
 * Offset of the first syntax error in text JSON.parse refused. V8's messages give no position for
 * an unexpected token, so a small scanner finds it.
 */
export function jsonErrorOffset(text: string): number {
  let i = 0;
  const stop = new Error('stop');
  const fail = (): never => {
    throw stop;
  };
  const ws = (): void => {
    while (i < text.length && ' \t\n\r'.includes(text[i] as string)) i++;
  };
  const string = (): void => {
    i++;
    while (i < text.length) {
      const c = text[i] as string;
      if (c === '"') {
        i++;
        return;
      }
      if (c === '\\') {
        ESCAPE.lastIndex = i;
        const m = ESCAPE.exec(text) ?? fail();
        i += m[0].length;
      } else if (c < ' ') fail();
      else i++;
    }
    fail();
  };
  const value = (): void => {
    ws();
    const open = text[i];
    if (open === '"') return string();
    if (open !== '{' && open !== '[') {
      NUMBER_OR_LITERAL.lastIndex = i;
      i += (NUMBER_OR_LITERAL.exec(text) ?? fail())[0].length;
      return;
    }
    const close = open === '{' ? '}' : ']';
    i++;
    ws();
    if (text[i] === close) {
      i++;
      return;
    }
    for (;;) {
      if (open === '{') {
        ws();
        if (text[i] !== '"') fail();
        string();
        ws();
        if (text[i] !== ':') fail();
        i++;
      }
      value();
      ws();
      if (text[i] === ',') i++;
      else if (text[i] === close) return void i++;
      else fail();
    }
  };
  try {
    value();
    ws();
  } catch {
    // `i` is where the scanner stopped: the first character that cannot be JSON there.
  }
  return i;
}

function parseJson(text: string, source: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    const offset = jsonErrorOffset(text);
    const before = text.slice(0, offset);
    const line = before.split('\n').length;
    const column = before.length - before.lastIndexOf('\n');
    const found =
      offset < text.length ? `unexpected ${JSON.stringify(text[offset])}` : 'it ends early';
    throw new UsageError(
      `${source}: not valid JSON at line ${line}, column ${column} (${found}); expected a JSON document.`,
    );
  }
}

/** The body of `--body`: inline JSON, or `@file` read as JSON. */
export function readCallBody(value: string | undefined): unknown {
  if (value === undefined) return undefined;
  if (!value.startsWith('@')) return parseJson(value, '--body');
  const file = value.slice(1);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const reason = (error as { code?: string }).code ?? (error as Error).message;
    throw new UsageError(`--body @${file}: cannot read the file (${reason}).`);
  }
  return parseJson(text, file);
}

/**
 * Invisible characters: Unicode format characters (category Cf), among them a byte-order mark
 * inside the text (U+FEFF), zero-width spaces and joiners, bidi controls. In a name or a key they
 * make two strings that look the same differ (`K\u200B1` is not `K1`), so a column is not found or
 * an entity is duplicated without anyone seeing why. Names are checked by the connectors (option
 * `invisibleInNames`), key values by the mapping (`invisibleInKey`): reject, naming the code point,
 * or strip. In other values they are text (a soft hyphen, a joiner inside an emoji) and are kept.
 */
import { z } from 'zod';

const INVISIBLE = /\p{Cf}/u;
const INVISIBLE_ALL = /\p{Cf}/gu;

const NAMES: Record<number, string> = {
  0x00ad: 'SOFT HYPHEN',
  0x061c: 'ARABIC LETTER MARK',
  0x180e: 'MONGOLIAN VOWEL SEPARATOR',
  0x200b: 'ZERO WIDTH SPACE',
  0x200c: 'ZERO WIDTH NON-JOINER',
  0x200d: 'ZERO WIDTH JOINER',
  0x200e: 'LEFT-TO-RIGHT MARK',
  0x200f: 'RIGHT-TO-LEFT MARK',
  0x202a: 'LEFT-TO-RIGHT EMBEDDING',
  0x202b: 'RIGHT-TO-LEFT EMBEDDING',
  0x202c: 'POP DIRECTIONAL FORMATTING',
  0x202d: 'LEFT-TO-RIGHT OVERRIDE',
  0x202e: 'RIGHT-TO-LEFT OVERRIDE',
  0x2060: 'WORD JOINER',
  0x2061: 'FUNCTION APPLICATION',
  0x2062: 'INVISIBLE TIMES',
  0x2063: 'INVISIBLE SEPARATOR',
  0x2064: 'INVISIBLE PLUS',
  0x2066: 'LEFT-TO-RIGHT ISOLATE',
  0x2067: 'RIGHT-TO-LEFT ISOLATE',
  0x2068: 'FIRST STRONG ISOLATE',
  0x2069: 'POP DIRECTIONAL ISOLATE',
  0xfeff: 'ZERO WIDTH NO-BREAK SPACE (a byte-order mark)',
  0xfff9: 'INTERLINEAR ANNOTATION ANCHOR',
  0xfffa: 'INTERLINEAR ANNOTATION SEPARATOR',
  0xfffb: 'INTERLINEAR ANNOTATION TERMINATOR',
};

export type InvisibleMode = 'reject' | 'strip';

/** The connectors' option for names: declared once here, described for the connector's kind of name. */
export function invisibleInNamesOption(what: string) {
  return z
    .enum(['reject', 'strip'])
    .default('reject')
    .meta({
      example: 'strip',
      description:
        `${what} holding an invisible character (a Unicode format character: zero-width space or ` +
        'joiner, bidi control, a byte-order mark inside the text): `reject` it, naming the code ' +
        'point and where it is, or `strip` such characters from the name.',
    });
}

/** `U+200B ZERO WIDTH SPACE`; a format character without a name here says its category. */
export function codePointName(codePoint: number): string {
  const hex = codePoint.toString(16).toUpperCase().padStart(4, '0');
  return `U+${hex} ${NAMES[codePoint] ?? 'FORMAT CHARACTER (Unicode category Cf)'}`;
}

export function hasInvisible(text: string): boolean {
  return INVISIBLE.test(text);
}

export function stripInvisible(text: string): string {
  return text.replace(INVISIBLE_ALL, '');
}

/** The text with each invisible character written as `\uXXXX`, so a message shows where it is. */
export function showInvisible(text: string): string {
  return text.replace(INVISIBLE_ALL, (c) => {
    const cp = c.codePointAt(0)!;
    return cp > 0xffff
      ? `\\u{${cp.toString(16).toUpperCase()}}`
      : `\\u${cp.toString(16).toUpperCase().padStart(4, '0')}`;
  });
}

/**
 * What is wrong with `text`: `"K\u200B1" holds U+200B ZERO WIDTH SPACE at column 2` (column: the
 * 1-based position among its characters), or undefined when it holds no invisible character.
 */
export function invisibleProblem(text: string): string | undefined {
  const match = INVISIBLE.exec(text);
  if (!match) return undefined;
  const column = [...text.slice(0, match.index)].length + 1;
  return (
    `"${showInvisible(text)}" holds ${codePointName(match[0].codePointAt(0)!)} at column ` +
    `${column}, an invisible character`
  );
}

/** What to tell the person who reads a message about a name holding an invisible character. */
export const NAME_ADVICE = 'correct the export, or give the option invisibleInNames=strip';

/**
 * A record's fields with invisible characters stripped from their names (`strip`), or the first
 * name that holds one (`reject`). Fields whose names hold none come back as they are.
 */
export function cleanFieldNames(
  fields: Record<string, string>,
  mode: InvisibleMode,
): { fields: Record<string, string> } | { field: string; message: string } {
  let dirty: string | undefined;
  for (const name in fields) {
    if (hasInvisible(name)) {
      dirty = name;
      break;
    }
  }
  if (dirty === undefined) return { fields };
  if (mode === 'reject') {
    return {
      field: showInvisible(dirty),
      message: `the field name ${invisibleProblem(dirty)}: ${NAME_ADVICE}`,
    };
  }
  const clean: Record<string, string> = {};
  for (const [name, value] of Object.entries(fields)) {
    const stripped = stripInvisible(name);
    if (Object.hasOwn(clean, stripped) || stripped === '__proto__') {
      return {
        field: showInvisible(name),
        message: `with its invisible characters stripped, the name "${showInvisible(name)}" is "${stripped}", which another field has already`,
      };
    }
    clean[stripped] = value;
  }
  return { fields: clean };
}

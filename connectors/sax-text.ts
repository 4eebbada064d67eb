/**
 * saxes holds a text (or a CDATA section) whole until it ends, so a 2 GB text would be held whole
 * before any handler saw it. `drainText` hands what the parser holds so far to the parser's own
 * handler and lets it start afresh: the handlers (which join the pieces of a text) receive a long
 * text in pieces, and the connector decides what to keep (bounded-text.ts). `dropAttributeValue`
 * drops an attribute value held past the limit, counting its bytes. Used by the xml and xlsx
 * connectors after each slice they feed.
 */
import type { SaxesParser } from 'saxes';

/** saxes's states (saxes.js, v6) in which `text` holds character data not yet handed on. */
const S_TEXT = 13;
const S_CDATA = 20;
const S_CDATA_ENDING = 21;
const S_CDATA_ENDING_2 = 22;
const S_ATTRIB_VALUE_QUOTED = 40;

/** What saxes keeps to itself: read and reset here, the only place that reaches into it. */
interface HeldText {
  state: number;
  text: string;
  textHandler?: (text: string) => void;
  cdataHandler?: (text: string) => void;
}

/**
 * Hands the text the parser holds (once it is at least `minChars` long) to its text or CDATA
 * handler. Returns whether the parser is inside character data: there a long run without a tag
 * costs no memory, while elsewhere (a tag, an attribute value, a comment) saxes still holds it.
 */
export function drainText(
  parser: SaxesParser<{ xmlns: false; position: true }>,
  minChars: number,
): boolean {
  const held = parser as unknown as HeldText;
  const inCdata =
    held.state === S_CDATA || held.state === S_CDATA_ENDING || held.state === S_CDATA_ENDING_2;
  if (held.state !== S_TEXT && !inCdata) return false;
  if (held.text.length >= minChars) {
    const text = held.text;
    held.text = '';
    (inCdata ? held.cdataHandler : held.textHandler)?.(text);
  }
  return true;
}

/**
 * Drops the attribute value the parser holds when it is over `maxChars` (the attribute then ends
 * with only the rest of its value); returns the UTF-8 bytes dropped, 0 when nothing was.
 */
export function dropAttributeValue(
  parser: SaxesParser<{ xmlns: false; position: true }>,
  maxChars: number,
): number {
  const held = parser as unknown as HeldText;
  if (held.state !== S_ATTRIB_VALUE_QUOTED || held.text.length <= maxChars) return 0;
  const bytes = Buffer.byteLength(held.text);
  held.text = '';
  return bytes;
}

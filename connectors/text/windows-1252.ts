/**
 * Windows-1252's bytes 0x80-0x9F (€ ‚ „ … † ‡ ˆ ‰ Š ‹ Œ Ž ' ' " " • – — ˜ ™ š › œ ž Ÿ). Some Node
 * builds (Node 20's ICU among them) decode them as the C1 control characters U+0080-U+009F, as
 * ISO-8859-1 would: a "€" in an ERP export would silently become U+0080. Decoded text passes
 * through `fixWindows1252` to put them right; where the decoder already did, it changes nothing.
 * The five bytes Windows-1252 leaves undefined stay the control characters (as WHATWG says).
 */
const HIGH = [
  0x20ac, 0x0081, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021, 0x02c6, 0x2030, 0x0160, 0x2039,
  0x0152, 0x008d, 0x017d, 0x008f, 0x0090, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014,
  0x02dc, 0x2122, 0x0161, 0x203a, 0x0153, 0x009d, 0x017e, 0x0178,
];

const C1 = /[\u0080-\u009f]/g;

export function fixWindows1252(text: string): string {
  return C1.test(text)
    ? text.replace(C1, (c) => String.fromCharCode(HIGH[c.charCodeAt(0) - 0x80]!))
    : text;
}

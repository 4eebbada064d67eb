/** Letters that Unicode decomposition does not reduce to ASCII, spelled the usual way. */
const SPECIAL: Record<string, string> = {
  æ: 'ae',
  Æ: 'ae',
  ø: 'o',
  Ø: 'o',
  å: 'a',
  Å: 'a',
  ß: 'ss',
  œ: 'oe',
  Œ: 'oe',
  þ: 'th',
  Þ: 'th',
  ð: 'd',
  Ð: 'd',
  đ: 'd',
  Đ: 'd',
  ł: 'l',
  Ł: 'l',
};
const SPECIAL_RE = new RegExp(`[${Object.keys(SPECIAL).join('')}]`, 'g');
const NON_ASCII = /[\u0080-\uffff]/;

function replaceSpecial(c: string): string {
  return SPECIAL[c] ?? c;
}

/** URL-safe lower-case slug: "Lett støvler 10002" -> "lett-stovler-10002". */
export function slugify(text: string): string {
  let ascii = text.replace(SPECIAL_RE, replaceSpecial);
  // Decomposition (é -> e + accent) only when something outside ASCII is left.
  if (NON_ASCII.test(ascii)) ascii = ascii.normalize('NFKD').replace(/\p{M}/gu, '');
  return ascii
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

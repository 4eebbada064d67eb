import { registerTransform, TransformRejection } from './registry.js';

/** The transforms every pipeline can name. Add project-specific ones in a module like this. */
registerTransform('uppercase', (v) => v.toUpperCase());
registerTransform('lowercase', (v) => v.toLowerCase());
/** Collapses runs of white space (line breaks included) into one space. */
registerTransform('collapseSpaces', (v) => v.replace(/\s+/g, ' '));
/** Keeps the digits only: "+47 66 93 58 89" -> "4766935889". */
registerTransform('digitsOnly', (v) => v.replace(/\D+/g, '') || undefined);
/** Strips HTML tags and decodes the common entities (Shopify's Body (HTML)). */
registerTransform('stripHtml', (v) =>
  v
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/\s+/g, ' ')
    .trim(),
);
/** A GTIN (8, 12, 13 or 14 digits) with a valid check digit; leading zeros are kept. */
registerTransform('gtin', (v) => {
  if (!/^(\d{8}|\d{12,14})$/.test(v)) {
    throw new TransformRejection(`expected a GTIN of 8, 12, 13 or 14 digits, got "${v}"`);
  }
  const digits = [...v].map(Number);
  const check = digits.pop() as number;
  const sum = digits.reverse().reduce((s, d, i) => s + d * (i % 2 === 0 ? 3 : 1), 0);
  if ((10 - (sum % 10)) % 10 !== check) {
    throw new TransformRejection(`"${v}" is not a GTIN (its check digit is wrong)`);
  }
  return v;
});

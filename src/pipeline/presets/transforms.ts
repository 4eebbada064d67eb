/**
 * Transforms the product presets name (config/pipelines/shopify-products.yaml and
 * akeneo-products.yaml; docs/PRESETS.md). Registered by name like the built-in ones: a pipeline
 * can only pick them, never carry code.
 */
import { registerTransform, TransformRejection } from '../transforms/registry.js';

const CURRENCY = /^[A-Z]{3}$/;

/**
 * A currency code followed by the amount it prices, as a template gives it
 * (`'USD {Variant Price}'`): the code when an amount follows, no value when none does. A price
 * object whose amount and currency both have no value is left out of its array, so an empty
 * price column gives no price instead of a price without an amount.
 */
registerTransform('currencyWithAmount', (value) => {
  const [code = '', ...amount] = value.split(/\s+/);
  if (!CURRENCY.test(code)) {
    throw new TransformRejection(
      `expected an ISO 4217 currency code such as EUR before the amount, got "${code}"`,
    );
  }
  return amount.join('') === '' ? undefined : code;
});

/** A barcode as a PIM holds it (EAN, UPC, GTIN): 8 to 14 digits, leading zeros kept. */
registerTransform('barcodeDigits', (value) => {
  if (!/^\d{8,14}$/.test(value)) {
    throw new TransformRejection(
      `expected a barcode (EAN, UPC, GTIN) of 8 to 14 digits, got "${value}"`,
    );
  }
  return value;
});

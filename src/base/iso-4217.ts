/**
 * ISO 4217 currency codes and their minor units (the exponent: digits after the point), as the
 * standard's list of current codes states them (List One, amendments to 2025). Most have 2; the
 * others are listed by exponent. Codes the standard gives no minor unit (gold, SDR, test and
 * bond-market units: XAU, XDR, XTS...) are not currencies an amount is priced in and are absent,
 * as is any code not listed: an unknown code is refused, never guessed at 2.
 */

const EXPONENT_0 = 'BIF CLP DJF GNF ISK JPY KMF KRW PYG RWF UGX UYI VND VUV XAF XOF XPF';
const EXPONENT_3 = 'BHD IQD JOD KWD LYD OMR TND';
const EXPONENT_4 = 'CLF UYW';
const EXPONENT_2 =
  'AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BMD BND BOB BOV BRL BSD BTN BWP BYN ' +
  'BZD CAD CDF CHE CHF CHW CNY COP COU CRC CUC CUP CVE CZK DKK DOP DZD EGP ERN ETB EUR FJD FKP ' +
  'GBP GEL GHS GIP GMD GTQ GYD HKD HNL HTG HUF IDR ILS INR IRR JMD KES KGS KHR KPW KYD KZT LAK ' +
  'LBP LKR LRD LSL MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MXV MYR MZN NAD NGN NIO NOK ' +
  'NPR NZD PAB PEN PGK PHP PKR PLN QAR RON RSD RUB SAR SBD SCR SDG SEK SGD SHP SLE SLL SOS SRD ' +
  'SSP STN SVC SYP SZL THB TJS TMT TOP TRY TTD TWD TZS UAH USD USN UYU UZS VED VES WST XCD XCG ' +
  'YER ZAR ZMW ZWG ZWL';

const EXPONENTS: ReadonlyMap<string, number> = new Map(
  (
    [
      [EXPONENT_0, 0],
      [EXPONENT_2, 2],
      [EXPONENT_3, 3],
      [EXPONENT_4, 4],
    ] as const
  ).flatMap(([codes, exponent]) => codes.split(' ').map((code) => [code, exponent] as const)),
);

/** The currency's minor-unit exponent (NOK 2, JPY 0, KWD 3), or undefined for an unknown code. */
export function minorUnitExponent(code: string): number | undefined {
  return EXPONENTS.get(code);
}

/** Whether `code` is a current ISO 4217 currency code (upper case, as the standard writes it). */
export const isCurrencyCode = (code: string): boolean => EXPONENTS.has(code);

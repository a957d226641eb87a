/**
 * The patterns of the specification's formats, as data: the schemas (lib/spec/schemas) use them in
 * `pattern`, lib/validate builds its predicates and messages from them. They live here, not in lib/validate,
 * so that lib/spec depends on nothing (lib/validate depends on lib/spec, never the other way).
 */

export const IBAN_PATTERN = '^[A-Z]{2}[0-9]{2}[a-zA-Z0-9]{1,30}$';
export const IBAN_MAX_LENGTH = 34;
export const BIC_PATTERN = '^[A-Z]{6}[A-Z2-9][A-NP-Z0-9]([A-Z0-9]{3})?$';
/** A decimal amount: optional minus, digits, optional dot and digits (no exponent, comma or space). */
export const AMOUNT_SYNTAX_PATTERN = '^-?[0-9]+(\\.[0-9]+)?$';
/**
 * A positive amount: no sign, not zero (catalogue PAY-48, SHOULD). Not used by the schemas, since the
 * specification and the Berlin Group allow zero and negative amounts and a schema error is a failure.
 */
export const POSITIVE_AMOUNT_PATTERN = '^(?!0+(\\.0+)?$)[0-9]+(\\.[0-9]+)?$';
/**
 * Precision 18: not 19 digits after the sign and the leading zeros (a dot may sit between them). The
 * minus is taken when present (`-|(?!-)`), so the engine cannot skip it and test the lookahead at the
 * sign, which once let every negative amount through.
 */
export const AMOUNT_PRECISION_PATTERN = '^(?:-|(?!-))0*(?!(?:\\.?[0-9]){19})';
/** Scale 5: at most 5 characters after the decimal dot. */
export const AMOUNT_SCALE_PATTERN = '^[^.]*(\\.[^.]{0,5})?$';
export const AMOUNT_PRECISION = 18;
export const AMOUNT_SCALE = 5;

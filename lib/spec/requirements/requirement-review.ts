/**
 * How the audit of issue 38 was decided, entry by entry (Requirement.review): the builders, and the answers
 * many entries share. docs/catalogue-review.md is the table of all of them, kept equal by test/spec.
 */
import type { Review, ReviewFinding } from './requirement-types.js';

export const relaxed = (finding: ReviewFinding, what: string, reason: string): Review => ({ finding, what, answer: 'relaxed', reason });
export const lowered = (finding: ReviewFinding, what: string, reason: string): Review => ({ finding, what, answer: 'lowered', reason });
/** `sentence`: quoted from the specification, or from the Berlin Group 1.3 text it defers to. */
export const kept = (finding: ReviewFinding, what: string, sentence: string): Review => ({
  finding,
  what,
  answer: 'kept',
  reason: sentence,
});
export const variant = (finding: ReviewFinding, what: string, variants: readonly string[], reason: string): Review => ({
  finding,
  what,
  answer: 'variant',
  reason,
  variants,
});

/** A rule of the payment request table: the field's rule stands, the bank's answer to a request breaking it is not written. */
export const FIELD_REFUSAL = lowered(
  'refusal',
  'refused with 400',
  'The field table gives the rule of the field, not what the bank answers a request that breaks it. 400 FORMAT_ERROR is the Berlin Group answer to a format error (MessageCode400_PIS) and the status of every refusal the specification names, so it is what a bank SHOULD do; a 5xx stays a FAIL of ERR-44.',
);

/** A row of the header table marked "Required: yes": a duty of the TPP, the bank's answer to its absence not written. */
export const REQUIRED_HEADER = lowered(
  'refusal',
  'a request without the header refused with 400',
  '"Required: yes" tells the TPP what to send; the table does not say what the bank answers a request without it, and a bank that serves one anyway keeps every sentence. Refusing with 400 (the status of the refusals the specification names) is the better practice: SHOULD.',
);

/** A row of the header table with a form ("UUID", "GET, POST…"): a value outside it is the TPP's error, its refusal not written. */
export const HEADER_FORM = lowered(
  'refusal',
  "a value outside the header's form refused with 400",
  "The row gives the header's form; what the bank answers a value outside it is not written (a bank may ignore a header it does not use). Refusing with 400 FORMAT_ERROR is the Berlin Group practice: SHOULD.",
);

/** A refusal the text names without its status: any 4xx passes, a 2xx or a 5xx does not. */
export const ANY_CLIENT_ERROR = relaxed(
  'refusal',
  'refused with 400 (or a short list of statuses)',
  'The text says the request is refused ("returns an error", "is rejected", "not supported", "must be correct", "validated") without naming a status: any 4xx passes, what fails is a request served or a 5xx.',
);

/** A refusal Authentication 3 states: the signed request cannot be validated as the XS2A profile (Authentication 8) builds it. */
export const FAILS_VALIDATION = kept('refusal', 'refused with 400', 'Authentication 3: "A signature that fails validation gets 400."');

/** A refusal Errors rule 3 states. */
export const KID_ERROR = kept('refusal', 'refused with 400', 'Errors rule 3: "A KID error gives 400 (not 401)."');

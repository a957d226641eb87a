/**
 * PAY: payment initiation request and 201 response (Resources > Payment initiation request / response).
 *
 * The field table gives each field its rule; what the bank answers a request that breaks one is not written.
 * Refusing it with 400, the status the specification gives every refusal it names (Errors rules 1-4 and 7)
 * and the status of the Berlin Group FORMAT_ERROR, is what a bank SHOULD do (FIELD_REFUSAL); a 5xx to it
 * fails ERR-44. The code of such a refusal is checked once, at SHOULD level, under ERR-21.
 */
import { FIELD_REFUSAL, lowered, relaxed, variant } from './requirement-review.js';
import { defineArea } from './requirement-types.js';

const ACCEPTED = { status: [201] } as const;
const REFUSED = { status: [400] } as const;

const REQ = 'Resources > Payment initiation request > ';
const RES = 'Resources > Payment initiation response > ';

export const PAY = defineArea('PAY', [
  // ---- Request (POST /v1/payments/sepa-credit-transfers body) ----
  {
    id: 'PAY-01',
    level: 'MUST',
    section: `${REQ}endToEndIdentification`,
    statement: 'endToEndIdentification is optional: a payment request without it is accepted (201).',
    testedBy: 'automated',
    expect: ACCEPTED,
  },
  {
    id: 'PAY-02',
    level: 'SHOULD',
    section: `${REQ}endToEndIdentification`,
    statement: 'endToEndIdentification holds at most 35 characters: 35 are accepted, 36 get 400.',
    testedBy: 'automated',
    expect: REFUSED,
    interpretation: 'The bound is inclusive and counts characters (not bytes); the code of the refusal is checked under ERR-21.',
    review: [FIELD_REFUSAL],
  },
  {
    id: 'PAY-03',
    level: 'SHOULD',
    section: `${REQ}instructedAmount`,
    statement: 'instructedAmount is a required object: a request without it, or with a non-object value, gets 400.',
    testedBy: 'automated',
    expect: REFUSED,
    review: [FIELD_REFUSAL],
  },
  {
    id: 'PAY-04',
    level: 'SHOULD',
    section: `${REQ}instructedAmount.amount`,
    statement: 'instructedAmount.amount is required and is a JSON string: a missing amount gets 400.',
    testedBy: 'automated',
    expect: REFUSED,
    review: [FIELD_REFUSAL],
  },
  {
    id: 'PAY-05',
    level: 'SHOULD',
    section: `${REQ}instructedAmount.amount`,
    statement: 'An amount has at most 18 digits in total (contract precision 18): 19 digits get 400.',
    testedBy: 'automated',
    expect: REFUSED,
    interpretation:
      'Precision is read as in SQL DECIMAL(18,5): the count of all significant digits, integer and fraction together, leading zeros not counted.',
    review: [FIELD_REFUSAL],
  },
  {
    id: 'PAY-06',
    level: 'SHOULD',
    section: `${REQ}instructedAmount.amount`,
    statement: 'An amount has at most 5 fraction digits (contract scale 5): 6 fraction digits get 400.',
    testedBy: 'automated',
    expect: REFUSED,
    interpretation:
      'Scale is the maximum number of digits after the decimal point. No currency in the list has more than 3 minor units, so PAY-07 is the stricter bound in practice; this entry records the contract limit.',
    review: [FIELD_REFUSAL],
  },
  {
    id: 'PAY-07',
    level: 'SHOULD',
    section: `${REQ}instructedAmount.amount`,
    statement: "An amount with more fraction digits than the currency's ISO 4217 minor units gets 400 (e.g. EUR 10.123, JPY 100.5).",
    testedBy: 'automated',
    expect: REFUSED,
    interpretation:
      '"Must match the minor units" has two readings, exactly the minor units or at most the minor units; more digits break both, and would need a rounding the bank must not do silently. Fewer digits are PAY-47. The rule is a row of the payment request ("amount | ... | payment" in Limits): amounts the bank answers with (balances, transactions, fees) are not held to it, so a JPY balance of "1500.00" or a fee of "1.005" NOK keep the spec.',
    review: [FIELD_REFUSAL],
  },
  {
    id: 'PAY-08',
    level: 'MUST',
    section: `${REQ}instructedAmount.amount`,
    statement:
      'An amount with exactly the minor units of its currency is accepted, in a currency the product takes: EUR "10.00" on sepa-credit-transfers; BHD "1.000" where the bank takes BHD.',
    testedBy: 'automated',
    expect: ACCEPTED,
    interpretation:
      'Exactly the minor units meets "must match" under both of its readings (exactly, or at most), so it must be accepted. Which currencies a product takes is not said: the currency list is the list a currency is drawn from, and a SEPA credit transfer is a euro payment in the SEPA scheme. So JPY and BHD are judged only where the bank takes the currency: a BHD "1.000" refused while "1" is taken fails, both refused leave the rule unjudged; JPY has no form without its minor units to compare with, and is not judged.',
    review: [
      relaxed(
        'beyond-text',
        'exact minor units accepted in every listed currency, on SEPA',
        'The list says which codes a currency may be, not that every product takes each: only what "must match the ISO 4217 minor units" makes a MUST is kept, in a currency the product takes.',
      ),
      variant(
        'assertion',
        'PAY-08.b and .c: SEPA credit transfers in JPY and BHD',
        ['sepa-in-euro-only'],
        'PAY-08.b (JPY) is withdrawn; PAY-08.c compares BHD "1.000" with BHD "1", so a bank that takes no BHD on SEPA leaves it unjudged.',
      ),
    ],
  },
  {
    id: 'PAY-09',
    level: 'SHOULD',
    section: `${REQ}instructedAmount.amount`,
    statement:
      'An amount is a decimal with a dot as separator and an optional leading minus: exponents, commas, spaces or a plus sign get 400.',
    testedBy: 'automated',
    basis: 'berlin-group',
    source:
      'NextGenPSD2 XS2A 1.3 OpenAPI 1.3.8, schema amountValue (pattern -?[0-9]{1,14}(\\.[0-9]{1,3})?, "the decimal separator is a dot")',
    expect: REFUSED,
    interpretation:
      'The spec gives only precision and scale (which widen the Berlin Group 14 and 3 digits); the written form of the number is the Berlin Group one. Zero and negative amounts fit that pattern; refusing them is PAY-48 (SHOULD).',
    review: [FIELD_REFUSAL],
  },
  {
    id: 'PAY-10',
    level: 'SHOULD',
    section: `${REQ}instructedAmount.currency`,
    statement: 'instructedAmount.currency is required and must be a code of the currency list: a missing or unknown code gets 400.',
    testedBy: 'automated',
    expect: REFUSED,
    review: [FIELD_REFUSAL],
  },
  {
    id: 'PAY-11',
    level: 'SHOULD',
    section: `${REQ}instructedAmount.currency`,
    statement: 'A current ISO 4217 code absent from the currency list (e.g. BYN, MRU, VES, STN) gets 400.',
    testedBy: 'automated',
    expect: REFUSED,
    interpretation:
      'The rule says "one of the currency list below", so the list is closed even where it lists withdrawn codes (BYR, MRO, VEF, STD) instead of their successors.',
    review: [FIELD_REFUSAL],
  },
  {
    id: 'PAY-12',
    level: 'INFO',
    section: `${REQ}instructedAmount.currency`,
    statement: 'The currency list holds codes that ISO 4217 withdrew or never had; the suite assigns each a number of minor units.',
    testedBy: 'manual:code-list decision applied by the PAY-07 and PAY-08 tests',
    interpretation:
      'Withdrawn codes (BYR 0, MRO 2, STD 2, VEF 2, HRK 2, CUC 2, ZWD 2, SLL 2) keep their last published ISO 4217 minor units; non-ISO codes GGP, IMP, JEP, SPL, TVD take 2, like the currencies they track.',
  },
  {
    id: 'PAY-13',
    level: 'SHOULD',
    section: `${REQ}creditorName`,
    statement: 'creditorName is required: a request without it gets 400.',
    testedBy: 'automated',
    expect: REFUSED,
    review: [FIELD_REFUSAL],
  },
  {
    id: 'PAY-14',
    level: 'SHOULD',
    section: `${REQ}creditorName`,
    statement: 'creditorName holds at most 70 characters: 70 are accepted, 71 get 400.',
    testedBy: 'automated',
    expect: REFUSED,
    review: [FIELD_REFUSAL],
  },
  {
    id: 'PAY-15',
    level: 'SHOULD',
    section: `${REQ}creditorAccount`,
    statement: 'creditorAccount is a required object: a request without it gets 400.',
    testedBy: 'automated',
    expect: REFUSED,
    review: [FIELD_REFUSAL],
  },
  {
    id: 'PAY-16',
    level: 'SHOULD',
    section: `${REQ}creditorAccount.iban`,
    statement: 'creditorAccount.iban is required: a creditor account without an IBAN gets 400.',
    testedBy: 'automated',
    expect: REFUSED,
    review: [FIELD_REFUSAL],
  },
  {
    id: 'PAY-17',
    level: 'SHOULD',
    section: `${REQ}creditorAccount.iban`,
    statement: 'creditorAccount.iban holds at most 34 characters: 35 get 400.',
    testedBy: 'automated',
    expect: REFUSED,
    review: [FIELD_REFUSAL],
  },
  {
    id: 'PAY-18',
    level: 'SHOULD',
    section: `${REQ}creditorAccount.iban`,
    statement: 'creditorAccount.iban is in ISO 13616-1 electronic form with valid check digits: a wrong mod-97 check or spaces get 400.',
    testedBy: 'automated',
    expect: REFUSED,
    interpretation:
      '"ISO 13616-1 form" with "at most 34 characters" is the electronic format (the spaced paper format runs longer): country code, two check digits, BBAN, upper case, no spaces, and the mod-97 check of ISO 13616-1 passing.',
    review: [
      FIELD_REFUSAL,
      relaxed(
        'assertion',
        'IBANs checked against national check digits',
        "ISO 13616-1 gives an IBAN its country code, length and structure from the registry and its mod-97 check digits; a country's own check digits inside the BBAN (the Norwegian mod-11 one) are national rules, not ISO 13616: lib/identifiers checks the former only, in a request and in what the bank answers.",
      ),
    ],
  },
  {
    id: 'PAY-19',
    level: 'SHOULD',
    section: `${REQ}creditorAccount.currency`,
    statement: 'creditorAccount.currency is required and is a code of the currency list: missing or unknown gets 400.',
    testedBy: 'automated',
    expect: REFUSED,
    review: [FIELD_REFUSAL],
  },
  {
    id: 'PAY-20',
    level: 'SHOULD',
    section: `${REQ}creditorAddress`,
    statement: 'creditorAddress, when present, is an object: any other JSON type gets 400.',
    testedBy: 'automated',
    expect: REFUSED,
    interpretation:
      'The field table marks creditorAddress optional; since the structured-address rule is enforced (ADR-05, ADR-06) its absence is refused through that rule, not as a format error.',
    review: [FIELD_REFUSAL],
  },
  {
    id: 'PAY-21',
    level: 'SHOULD',
    section: `${REQ}creditorAddress.street`,
    statement: 'creditorAddress.street holds at most 70 characters: 71 get 400.',
    testedBy: 'automated',
    expect: REFUSED,
    interpretation:
      'The table writes `street`; the Berlin Group names it streetName. The suite sends `street` as the table says and the reference bank also accepts streetName.',
    review: [FIELD_REFUSAL],
  },
  {
    id: 'PAY-22',
    level: 'SHOULD',
    section: `${REQ}creditorAddress.buildingNumber`,
    statement: 'creditorAddress.buildingNumber and postalCode are strings when present: a number or object gets 400.',
    testedBy: 'automated',
    expect: REFUSED,
    interpretation: 'No length limit is given for them, so none is imposed (the Berlin Group limits are not added).',
    review: [FIELD_REFUSAL],
  },
  {
    id: 'PAY-23',
    level: 'MAY',
    section: `${REQ}creditorAddress.city`,
    statement: 'creditorAddress.city (deprecated, replaced by townName) may still be accepted or may be refused with 400: both pass.',
    testedBy: 'automated',
    expect: { status: [201, 400] },
    interpretation:
      'The table calls city deprecated while Versioning says it is removed in favour of townName: one reading keeps accepting it, the other refuses it, so 201 and 400 both pass. Where it is accepted, it may stand for townName (ADR-05).',
  },
  {
    id: 'PAY-24',
    level: 'MUST',
    section: `${REQ}creditorAddress.townName`,
    statement: 'creditorAddress.townName, the replacement of city, is accepted as a string (201).',
    testedBy: 'automated',
    expect: ACCEPTED,
  },
  {
    id: 'PAY-25',
    level: 'SHOULD',
    section: `${REQ}creditorAddress.country`,
    statement: 'creditorAddress.country is required inside creditorAddress: an address without a country gets 400.',
    testedBy: 'automated',
    expect: REFUSED,
    review: [FIELD_REFUSAL],
  },
  {
    id: 'PAY-26',
    level: 'SHOULD',
    section: `${REQ}creditorAddress.country`,
    statement: 'creditorAddress.country has exactly 2 characters: "NOR" or "N" get 400.',
    testedBy: 'automated',
    expect: REFUSED,
    review: [FIELD_REFUSAL],
  },
  {
    id: 'PAY-27',
    level: 'SHOULD',
    section: `${REQ}creditorAddress.country`,
    statement: 'creditorAddress.country is a code of the country list, in upper case: "XK" or "no" get 400.',
    testedBy: 'automated',
    expect: REFUSED,
    interpretation: 'The list is written in upper case and ISO 3166-1 alpha-2 codes are upper case, so lower case is not accepted.',
    review: [FIELD_REFUSAL],
  },
  {
    id: 'PAY-28',
    level: 'SHOULD',
    section: `${REQ}debtorAccount`,
    statement: 'debtorAccount is a required object: a request without it gets 400.',
    testedBy: 'automated',
    expect: REFUSED,
    review: [FIELD_REFUSAL],
  },
  {
    id: 'PAY-29',
    level: 'SHOULD',
    section: `${REQ}debtorAccount.iban`,
    statement: 'debtorAccount.iban is required and holds at most 34 characters: missing or 35 characters get 400.',
    testedBy: 'automated',
    expect: REFUSED,
    interpretation: 'The same ISO 13616-1 check as for the creditor (PAY-18) applies: both fields are IBANs.',
    review: [FIELD_REFUSAL],
  },
  {
    id: 'PAY-30',
    level: 'SHOULD',
    section: `${REQ}debtorAccount.currency`,
    statement: 'debtorAccount.currency is required and is a code of the currency list: missing or unknown gets 400.',
    testedBy: 'automated',
    expect: REFUSED,
    interpretation: 'The row says only "required"; the currency list of the Currency type applies as for creditorAccount.currency.',
    review: [FIELD_REFUSAL],
  },
  {
    id: 'PAY-31',
    level: 'SHOULD',
    section: `${REQ}remittanceInformationUnstructured`,
    statement: 'remittanceInformationUnstructured is optional but, when sent, not empty: "" gets 400.',
    testedBy: 'automated',
    expect: REFUSED,
    review: [FIELD_REFUSAL],
  },
  {
    id: 'PAY-32',
    level: 'MAY',
    section: `${REQ}remittanceInformationUnstructured`,
    statement:
      'remittanceInformationUnstructured holds at most 140 characters: 140 are accepted, 141 may be refused with 400 or taken (and truncated): both pass.',
    testedBy: 'automated',
    expect: { status: [201, 400] },
    interpretation:
      "The bound is the TPP's; the permission to truncate (PAY-34) lets a bank take a longer text and cut it, as much as refusing it keeps the bound.",
    review: [
      lowered(
        'beyond-text',
        'MUST refuse 141 characters',
        'The row says "at most 140 characters; … may be truncated or re-encoded during processing": a bank may take a longer text and truncate it, or refuse it. MAY: 201 and 400 pass, another answer is a WARNING.',
      ),
    ],
  },
  {
    id: 'PAY-33',
    level: 'MUST',
    section: `${REQ}remittanceInformationUnstructured`,
    statement: 'remittanceInformationUnstructured may be ASCII or UTF-8 text: Norwegian letters (æøå) are accepted (201).',
    testedBy: 'automated',
    expect: ACCEPTED,
  },
  {
    id: 'PAY-34',
    level: 'INFO',
    section: `${REQ}remittanceInformationUnstructured`,
    statement: 'The bank may truncate or re-encode the remittance text while processing; a read-back need not match byte for byte.',
    testedBy: 'manual:a permission to the bank; the suite never compares the text read back byte for byte',
  },
  {
    id: 'PAY-35',
    level: 'SHOULD',
    section: `${REQ}requestedExecutionDate`,
    statement: 'requestedExecutionDate is optional and, when sent, an ISO 8601 date (YYYY-MM-DD): other forms get 400.',
    testedBy: 'automated',
    expect: REFUSED,
    review: [FIELD_REFUSAL],
  },
  // ---- 201 response ----
  {
    id: 'PAY-36',
    level: 'MUST',
    section: `${RES}paymentId`,
    statement: 'A 201 payment response carries paymentId, a non-empty string identifying the payment.',
    expect: ACCEPTED,
    testedBy: 'automated',
  },
  {
    id: 'PAY-37',
    level: 'MUST',
    section: `${RES}transactionStatus`,
    statement: 'A 201 payment response carries transactionStatus, one of the eleven statuses the spec lists.',
    testedBy: 'automated',
    interpretation: 'Berlin Group statuses the spec leaves out (ACCC, ACFC, PATC) are not allowed.',
  },
  {
    id: 'PAY-38',
    level: 'MUST',
    section: `${RES}transactionFees`,
    statement: 'transactionFees is optional; when present it has amount (a string) and currency (from the currency list).',
    testedBy: 'automated',
    interpretation:
      'The response table types currency as Currency (the list) and amount only as a string: the precision, scale and minor units of the request amount (PAY-05 to PAY-07) are rules of the payment, not of its fee, which may carry more digits (a fee of "1.005").',
  },
  {
    id: 'PAY-39',
    level: 'INFO',
    section: `${RES}transactionFees`,
    statement: 'transactionFees is the total fee of the payment, currency-conversion fees included where they apply.',
    testedBy: 'manual:the fee amount depends on the bank price list, which the suite does not know',
  },
  {
    id: 'PAY-40',
    level: 'MUST',
    section: `${RES}transactionFeeIndicator`,
    statement: 'transactionFeeIndicator is an optional boolean; it is not false when transactionFees shows a fee above zero.',
    testedBy: 'automated',
    interpretation:
      '"true when the payment incurs a fee" is checked for consistency with transactionFees, the only fee evidence the suite sees.',
  },
  {
    id: 'PAY-41',
    level: 'MUST',
    section: `${RES}tppMessages`,
    statement: 'tppMessages is optional; when present it is an array of tppMessage items (see MSG).',
    testedBy: 'automated',
  },
  {
    id: 'PAY-42',
    level: 'MUST',
    section: `${RES}psuMessage`,
    statement: 'psuMessage is an optional string of at most 512 characters.',
    testedBy: 'automated',
  },
  {
    id: 'PAY-43',
    level: 'MUST',
    section: `${RES}_links`,
    statement: '_links is optional; when present it maps link names to Link objects (href and verbs, see MSG).',
    testedBy: 'automated',
  },
  // ---- Other payment services and products (shapes not shown; Berlin Group 1.3) ----
  {
    id: 'PAY-44',
    level: 'MUST',
    section: 'Resources > Payment initiation request > periodic payments (not shown)',
    statement:
      'A periodic payment adds startDate and frequency (Berlin Group codes), with optional endDate, executionRule, dayOfExecution: a bank taking periodic payments does not call that shape malformed.',
    testedBy: 'automated',
    basis: 'berlin-group',
    source:
      'NextGenPSD2 XS2A 1.3 OpenAPI 1.3.8, schemas periodicPaymentInitiation_json, frequencyCode, executionRule, dayOfExecution, monthsOfExecution; info ("only necessary to support a certain subset of the methods defined in this API definition")',
    interpretation:
      "The spec names periodic payments (Errors rule 8, baskets) without their shape; the Berlin Group shape fills the gap, with monthsOfExecution for MonthlyVariable. The Berlin Group makes no payment service mandatory and lets the bank publish its products, and frequencyCode lists the codes a frequency is written in, not a duty to offer each. So each frequency is tried on sepa-credit-transfers, then the domestic and cross-border products, starting two weeks ahead and without the optional fields: taken passes; refused while the bank takes another frequency, or refused as a service it does not offer, is the bank's offer and not judged; refused as malformed (the answer ERR-21 expects of a malformed request) while no frequency is taken at all fails, since that calls the Berlin Group shape malformed.",
    review: [
      relaxed(
        'beyond-text',
        'periodic payments demanded on some product',
        'Berlin Group 1.3.8: "this API definition does not differ between methods which are mandatory, conditional, or optional … it is only necessary to support a certain subset of the methods": what stays a MUST is the shape, where the bank takes periodic payments.',
      ),
      variant(
        'assertion',
        'PAY-44.a-i: all nine frequencies, starting in 2030, dayOfExecution 15 for Daily and Weekly',
        ['periodic-some-frequencies'],
        "frequencyCode lists the codes, not the frequencies a bank offers; a start years ahead and a day of the month for a daily or weekly order are the suite's, not the Berlin Group's. Each frequency now starts two weeks ahead, without the optional fields, and a frequency the bank does not offer is not judged.",
      ),
    ],
  },
  {
    id: 'PAY-45',
    level: 'MUST',
    section: 'Resources > Payment initiation request > bulk payments (not shown)',
    statement:
      'A bulk payment holds debtorAccount and a payments array, with optional batchBookingPreferred and requestedExecutionDate; a bank that offers bulk payments does not refuse that shape as malformed.',
    testedBy: 'automated',
    basis: 'berlin-group',
    source:
      'NextGenPSD2 XS2A 1.3 OpenAPI 1.3.8, schemas bulkPaymentInitiation_json and paymentInitiationBulkElement_json; info ("only necessary to support a certain subset of the methods defined in this API definition")',
    interpretation:
      'Shape not shown; the Berlin Group bulk body fills the gap, its payments carrying the single-payment fields without debtorAccount. The Berlin Group sets no minimum number of payments, so none is demanded here (an empty list is PAY-51, a SHOULD). Bulk payments are a service the bank may offer or not: the suite tries sepa-credit-transfers, then the domestic and cross-border products; taken passes, refused as a service not offered (any other refusal) is not judged, and refused as malformed (the answer ERR-21 expects of a malformed request) on every product fails.',
    review: [
      relaxed(
        'beyond-text',
        'a bulk payment demanded on some product',
        'The specification names bulk payments only to keep them out of signing baskets (Errors rule 7) and shows no shape; the Berlin Group shape fills that gap, but not a duty to offer the service. The MUST is narrowed to the shape, where the bank offers bulk payments.',
      ),
      variant(
        'assertion',
        'bulk payments made mandatory',
        ['no-bulk-payments'],
        'Berlin Group 1.3.8: "it is only necessary to support a certain subset of the methods defined in this API definition"; the specification names bulk payments only to keep them out of baskets (Errors rule 7). What stays a MUST is the shape, where the bank offers them.',
      ),
    ],
  },
  {
    id: 'PAY-46',
    level: 'SHOULD',
    section: 'Resources > Payment initiation request > other payment products (not shown)',
    statement: 'Payment products other than sepa-credit-transfers take the same request fields and rules unless a rule names the product.',
    testedBy: 'automated',
    basis: 'berlin-group',
    source: 'NextGenPSD2 XS2A 1.3 OpenAPI 1.3.8, schema paymentInitiation_json (one JSON body for every JSON payment product)',
    interpretation:
      'The spec names domestic-norway-credit-transfers and NCBCT without their fields. The Berlin Group uses one JSON body for every product but lets a bank restrict it per product, so a product that refuses a SEPA-shaped body is a WARNING, not a FAIL. Product path names are declared per target.',
  },
  // ---- Entries added when the catalogue was made never stricter than the specification ----
  {
    id: 'PAY-47',
    level: 'MAY',
    section: `${REQ}instructedAmount.amount`,
    statement:
      'An amount with fewer fraction digits than the minor units (EUR "10" or "10.5") may be accepted or refused with 400: both pass.',
    testedBy: 'automated',
    expect: { status: [201, 400] },
    interpretation:
      '"The fraction digits must match the ISO 4217 minor units" read as "exactly" refuses EUR "10"; read as "at most" accepts it, as the Berlin Group amountValue examples do (1056 and 5768.2 for EUR). Neither reading is preferred.',
  },
  {
    id: 'PAY-48',
    level: 'SHOULD',
    section: `${REQ}instructedAmount.amount`,
    statement: 'A payment of zero or of a negative amount is refused with 400.',
    testedBy: 'automated',
    basis: 'interpretation',
    expect: REFUSED,
    interpretation:
      'Neither the spec (precision and scale only) nor the Berlin Group pattern (an optional minus) rules these out, but a payment of nothing or of less than nothing has no meaning; accepting one is a WARNING.',
  },
  {
    id: 'PAY-49',
    level: 'SHOULD',
    section: `${REQ}SCA with dynamic linking (Authentication 10)`,
    statement: 'During the SCA of a payment the PSU is shown its amount and its creditor before approving.',
    testedBy: 'automated',
    basis: 'interpretation',
    interpretation:
      'The spec names "SCA with dynamic linking" for payments without defining it; dynamic linking (PSD2 RTS article 5) makes the payer aware of the amount and the payee, for a batch "the total amount of the batch" (article 5(3)(b)). Read through an element of the SCA page the target declares (a `read` step with `as: paymentSummary` in targets.yaml); without one the check is not evaluated.',
    review: [
      relaxed(
        'assertion',
        'SCA-24.i-l: each amount of a bulk payment on its confirmation page (the clean-room bank shows their total)',
        'PSD2 RTS article 5(3)(b) links the SCA of a batch of payments to "the total amount of the batch of payment transactions and to the specified payees": the total passes as well as each amount.',
      ),
    ],
  },
  {
    id: 'PAY-50',
    level: 'SHOULD',
    section: 'Endpoints > payment cancellation (not shown)',
    statement: 'A payment not yet executed can be cancelled by DELETE on its resource, after which its status reads CANC.',
    testedBy: 'automated',
    basis: 'berlin-group',
    source:
      'NextGenPSD2 XS2A 1.3 OpenAPI 1.3.8, DELETE /v1/{payment-service}/{payment-product}/{paymentId} (204, or 202 when the cancellation needs an authorisation) and transactionStatus CANC',
    expect: { status: [200, 202, 204] },
    interpretation:
      'The spec shows no cancellation, and the Berlin Group leaves it to the bank whether a payment can be cancelled, so a bank without it is a WARNING, not a FAIL. A 202 (cancellation to be authorised) passes the first half; CANC is then not expected yet.',
  },
  {
    id: 'PAY-51',
    level: 'SHOULD',
    section: 'Resources > Payment initiation request > bulk payments (not shown)',
    statement: 'A bulk payment whose payments array is empty is refused with 400.',
    testedBy: 'automated',
    basis: 'interpretation',
    expect: REFUSED,
    interpretation:
      'The Berlin Group sets no minimum number of payments (PAY-45), but a bulk of no payments pays nothing, like a payment of zero (PAY-48): accepting one is a WARNING.',
  },
  {
    id: 'PAY-52',
    level: 'SHOULD',
    section: 'Resources > Payment initiation request > bulk payments (not shown)',
    statement:
      'A payment of a bulk carrying its own debtorAccount or requestedExecutionDate is refused with 400: both belong to the bulk payment.',
    testedBy: 'automated',
    basis: 'berlin-group',
    source:
      'NextGenPSD2 XS2A 1.3 OpenAPI 1.3.8, schema paymentInitiationBulkElement_json ("These data elements may not be contained in any bulk entry": debtorAccount, requestedExecutionDate, requestedExecutionTime)',
    expect: REFUSED,
    interpretation:
      "Only the Berlin Group says it, and the spec does not show the bulk shape; \"may not be contained\" reads as a prohibition, but a bank that ignores the entry's own fields and pays from the bulk's debtorAccount on the bulk's date breaks nothing the spec states: a WARNING.",
  },
  {
    id: 'PAY-53',
    level: 'MUST',
    section: 'Endpoints > payment details (not shown)',
    statement:
      'Payment details (GET /v1/{payment-service}/{payment-product}/{paymentId}) carry debtorAccount, instructedAmount, creditorAccount and creditorName, with an optional transactionStatus.',
    testedBy: 'automated',
    basis: 'berlin-group',
    source:
      'NextGenPSD2 XS2A 1.3 OpenAPI 1.3.8, schema paymentInitiationWithStatusResponse (debtorAccount, instructedAmount, creditorAccount, creditorName required; accountReference and amount as in every response)',
    interpretation:
      'The spec names the details of a payment (END-08) without their shape; the Berlin Group answer is the initiation body with its status. It is a response: its accounts are account references (currency optional) and its amount an amount as any response writes it, so the rules of the request table do not judge it.',
  },
]);

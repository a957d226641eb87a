/** FMT: data format (What the service does > Data format, dates, amounts). */
import { defineArea } from './requirement-types.js';

const W = 'What the service does > ';

export const FMT = defineArea('FMT', [
  {
    id: 'FMT-01', level: 'MUST', section: `${W}Data format`,
    statement: 'All request and response bodies are JSON; responses with a body declare Content-Type application/json.',
    testedBy: 'automated',
    everyExchange: true,
    interpretation: 'The SCA web pages the PSU sees are not interface responses and are excluded.',
  },
  {
    id: 'FMT-02', level: 'MUST', section: `${W}Data format`,
    statement: 'XML is not supported: an XML payment body is refused with a 4xx error (400, 406 or 415) and never creates a payment.',
    testedBy: 'automated',
    expect: { status: [400, 406, 415] },
    interpretation: 'No status is named: 400 (a body that is not JSON) and 415 (an unsupported media type) both pass for an XML body, and 406 passes when the request also asks for XML in Accept. 2xx and 5xx fail.',
  },
  {
    id: 'FMT-03', level: 'MUST', section: `${W}Data format`,
    statement: 'Requests and responses are UTF-8: UTF-8 text is accepted, responses decode as UTF-8 and a declared charset is utf-8; a body or header value that is not UTF-8 gets 400.',
    testedBy: 'automated',
    expect: { status: [400] },
    interpretation: 'A request that is not UTF-8 breaks "Requests ... use UTF-8", so it is malformed: 400, the status the spec gives its malformed requests (the code is checked under ERR-21). Header values count: the spec makes no exception for them. UTF-8 text in a header may still be refused with 400 where a downstream system (a gateway that passes ASCII header values only) rejects the character: the spec allows that 400 (as FMT-04 reads it for an emoji), so UTF-8 text is taken, or refused with 400; any other refusal fails.',
  },
  {
    id: 'FMT-04', level: 'MUST', section: `${W}Data format`,
    statement: 'When a downstream system cannot take a character (such as an emoji) the service answers 400, not 5xx; a payment whose characters are taken gets 201.',
    testedBy: 'automated',
    expect: { status: [201, 400] },
    interpretation: 'Whether a character is refused depends on the downstream system, which the suite cannot see, so it sends an emoji in text fields and passes 201, or 400 with the error body; any 5xx fails. The reference bank refuses characters outside the Basic Multilingual Plane.',
  },
  {
    id: 'FMT-05', level: 'MUST', section: `${W}Dates`,
    statement: 'Dates in JSON bodies are ISO 8601 calendar dates, YYYY-MM-DD.',
    testedBy: 'automated',
  },
  {
    id: 'FMT-06', level: 'MUST', section: `${W}Dates`,
    statement: 'Date-times in JSON bodies are ISO 8601 with seconds and an explicit offset, as in YYYY-MM-DDThh:mm:ss+00:00.',
    testedBy: 'automated',
    interpretation: 'Read as RFC 3339 date-time: fractional seconds are allowed and `Z` counts as the offset +00:00; a date-time without an offset fails.',
  },
  {
    id: 'FMT-07', level: 'MUST', section: `${W}Dates`,
    statement: 'Dates in HTTP response headers (such as Date) use the RFC 7231 IMF-fixdate form, e.g. "Sun, 06 Nov 1994 08:49:37 GMT".',
    testedBy: 'automated',
    interpretation: 'RFC 7231 has no "full-date"; the preferred HTTP-date form, IMF-fixdate, is what senders must generate, so it is what the spec means.',
  },
  {
    id: 'FMT-08', level: 'MUST', section: `${W}Dates`,
    statement: 'A request whose Date header is not an HTTP-date (for example an ISO 8601 timestamp) is refused with 400.',
    testedBy: 'automated',
    expect: { status: [400] },
    interpretation: 'A Date that cannot be read cannot be "correct" within 60 seconds (Authentication 4), and date is a signed header, so the signed request fails validation: 400 (Authentication 3). RFC 7231 obliges recipients to accept its two obsolete forms too, so the suite does not test them; it tests only a value that is no HTTP-date at all.',
  },
  {
    id: 'FMT-09', level: 'MUST', section: `${W}Amounts`,
    statement: 'Amounts in responses (fees, balances, transactions) are JSON strings, never numbers.',
    testedBy: 'automated',
    interpretation: 'A string holding a decimal number with a dot (the Berlin Group amountValue form, of any length), its currency a three-letter code. The digit rules and the closed currency list of the payment request (PAY-05 to PAY-11) are not applied to what the bank reports: a JPY balance of "1500.00", a fee of "1.005" NOK or a card purchase in SSP or BYN are amounts as strings.',
  },
  {
    id: 'FMT-10', level: 'MUST', section: `${W}Amounts`,
    statement: 'A payment request with the amount as a JSON number instead of a string is refused with 400.',
    testedBy: 'automated',
    expect: { status: [400] },
    interpretation: 'Strings have been the default since amount-as-string became default (VER-12); a number is a format error. The sandbox mock-data operations may still accept numbers (SBX-06).',
  },
]);

/** FMT: data format (What the service does > Data format, dates, amounts). */
import { ANY_CLIENT_ERROR, FIELD_REFUSAL, kept, lowered, relaxed, variant } from './requirement-review.js';
import { CLIENT_ERROR_STATUSES, defineArea } from './requirement-types.js';

const W = 'What the service does > ';

export const FMT = defineArea('FMT', [
  {
    id: 'FMT-01',
    level: 'MUST',
    section: `${W}Data format`,
    statement: 'All request and response bodies are JSON; responses with a body declare Content-Type application/json.',
    testedBy: 'automated',
    everyExchange: true,
    interpretation:
      'The SCA web pages the PSU sees are not interface responses and are excluded; so are the answers to a request that names no operation of the interface (an unknown path, a method the path does not take) or that is refused before it reaches one (413, 414, 431), which a gateway in front of it may give in its own form.',
    review: [
      variant(
        'assertion',
        "a gateway's own non-JSON 404, 405 or 413 page failed as a response body that is not JSON",
        ['gateway-error-pages'],
        "Bodies are the interface's JSON; an answer to a request that names no operation of the interface, or that is refused before it reaches one (413, 414, 431), may come from what stands in front of it, in its own form: not judged.",
      ),
    ],
  },
  {
    id: 'FMT-02',
    level: 'MUST',
    section: `${W}Data format`,
    statement: 'XML is not supported: an XML payment body is refused with a 4xx and never creates a payment.',
    testedBy: 'automated',
    expect: { status: CLIENT_ERROR_STATUSES },
    interpretation:
      'No status is named: 400 (a body that is not JSON), 415 (an unsupported media type), 406 (when the request also asks for XML in Accept) and any other refusal pass. 2xx and 5xx fail.',
    review: [ANY_CLIENT_ERROR],
  },
  {
    id: 'FMT-03',
    level: 'MUST',
    section: `${W}Data format`,
    statement:
      'Requests and responses are UTF-8: UTF-8 text in a request is taken (or refused with 400 where a downstream system rejects a character), responses decode as UTF-8 and a declared charset is utf-8.',
    testedBy: 'automated',
    expect: { status: [400] },
    interpretation:
      'What the bank answers a request that is not UTF-8 is not written: a body is FMT-11 (SHOULD), a header value FMT-12 (MAY). UTF-8 text in a header may be refused with 400 where a downstream system (a gateway that passes ASCII header values only) rejects the character: the spec allows that 400 (as FMT-04 reads it for an emoji), so UTF-8 text is taken, or refused with 400; any other refusal fails.',
    review: [
      relaxed(
        'refusal',
        'a body or header value that is not UTF-8 refused with 400',
        'The sentence "Requests and responses use UTF-8" binds the TPP\'s requests; the bank\'s answer to one that is not UTF-8 is not written. The MUST keeps the UTF-8 the bank takes and sends; the refusals are FMT-11 (SHOULD) and FMT-12 (MAY).',
      ),
    ],
  },
  {
    id: 'FMT-04',
    level: 'MUST',
    section: `${W}Data format`,
    statement:
      'When a downstream system cannot take a character (such as an emoji) the service answers 400, not 5xx; a payment whose characters are taken gets 201.',
    testedBy: 'automated',
    expect: { status: [201, 400] },
    interpretation:
      'Whether a character is refused depends on the downstream system, which the suite cannot see, so it sends an emoji in text fields and passes 201, or 400 with the error body; any 5xx fails. The reference bank refuses characters outside the Basic Multilingual Plane.',
    review: [
      kept(
        'refusal',
        'a character a downstream system rejects refused with 400',
        'What the service does: "If a downstream system rejects a character (for example an emoji), the service answers 400."',
      ),
    ],
  },
  {
    id: 'FMT-05',
    level: 'MUST',
    section: `${W}Dates`,
    statement: 'Dates in JSON bodies are ISO 8601 calendar dates, YYYY-MM-DD.',
    testedBy: 'automated',
  },
  {
    id: 'FMT-06',
    level: 'MUST',
    section: `${W}Dates`,
    statement: 'Date-times in JSON bodies are ISO 8601 with seconds and an explicit offset, as in YYYY-MM-DDThh:mm:ss+00:00.',
    testedBy: 'automated',
    interpretation:
      'Read as RFC 3339 date-time: fractional seconds are allowed and `Z` counts as the offset +00:00; a date-time without an offset fails.',
  },
  {
    id: 'FMT-07',
    level: 'MUST',
    section: `${W}Dates`,
    statement: 'Dates in HTTP response headers (such as Date) use the RFC 7231 IMF-fixdate form, e.g. "Sun, 06 Nov 1994 08:49:37 GMT".',
    testedBy: 'automated',
    interpretation:
      'RFC 7231 has no "full-date"; the preferred HTTP-date form, IMF-fixdate, is what senders must generate, so it is what the spec means.',
  },
  {
    id: 'FMT-08',
    level: 'SHOULD',
    section: `${W}Dates`,
    statement: 'A request whose Date header is not an HTTP-date (for example an ISO 8601 timestamp) is refused with 400.',
    testedBy: 'automated',
    expect: { status: [400] },
    interpretation:
      'Dates in headers use the RFC 7231 form and the Date must be correct within 60 seconds (Authentication 4): both bind the TPP. A bank that reads an ISO 8601 Date and judges its deviation keeps every sentence; one that refuses it as no HTTP-date (the stricter practice, 400 as a signature failing validation) does too: a WARNING otherwise. RFC 7231 obliges recipients to accept its two obsolete forms, so the suite does not test them; it tests only a value that is no HTTP-date at all.',
    basis: 'interpretation',
    review: [
      lowered(
        'beyond-text',
        'MUST refuse a Date that is no HTTP-date with 400',
        'Not written: "Dates in HTTP headers use the RFC 7231 full-date form" and "the Date header must be correct" are the TPP\'s duties, and a bank that reads another form of date breaks neither. SHOULD.',
      ),
    ],
  },
  {
    id: 'FMT-09',
    level: 'MUST',
    section: `${W}Amounts`,
    statement: 'Amounts in responses (fees, balances, transactions) are JSON strings, never numbers.',
    testedBy: 'automated',
    interpretation:
      'A string holding a decimal number with a dot (the Berlin Group amountValue form, of any length), its currency a three-letter code. The digit rules and the closed currency list of the payment request (PAY-05 to PAY-11) are not applied to what the bank reports: a JPY balance of "1500.00", a fee of "1.005" NOK or a card purchase in SSP or BYN are amounts as strings.',
  },
  {
    id: 'FMT-10',
    level: 'SHOULD',
    section: `${W}Amounts`,
    statement: 'A payment request with the amount as a JSON number instead of a string is refused with 400.',
    testedBy: 'automated',
    expect: { status: [400] },
    interpretation:
      'Strings have been the default since amount-as-string became default (VER-12); a number is a format error. The sandbox mock-data operations may still accept numbers (SBX-06).',
    review: [
      FIELD_REFUSAL,
      lowered(
        'assertion',
        'FMT-10.a: a numeric amount must be refused',
        '"Amounts are serialised as strings" and the made-default amount-as-string bind what is written; a bank that reads a JSON number by its value (as the family\'s older helper scripts sent it) keeps the sentence. SHOULD.',
      ),
    ],
  },
  {
    id: 'FMT-11',
    level: 'SHOULD',
    section: `${W}Data format`,
    statement: 'A request body that is not valid UTF-8 is refused with 400.',
    testedBy: 'automated',
    basis: 'interpretation',
    expect: { status: [400] },
    interpretation:
      'Requests use UTF-8 and bodies are JSON, which is UTF-8 between systems (RFC 8259): a body of other bytes is no JSON text. Refusing it with 400 (the code under ERR-21) is the better practice; decoding it with replacement characters keeps no sentence the spec gives the bank, but breaks none either: a WARNING.',
    review: [
      lowered(
        'refusal',
        'split from FMT-03: a body that is not UTF-8 refused with 400',
        'The UTF-8 sentence binds the request; its refusal is not written. SHOULD.',
      ),
    ],
  },
  {
    id: 'FMT-12',
    level: 'MAY',
    section: `${W}Data format`,
    statement: 'A header value that is not valid UTF-8 may be refused with 400, or taken: both pass.',
    testedBy: 'automated',
    basis: 'interpretation',
    expect: { status: [400] },
    interpretation:
      'HTTP lets a field value carry bytes outside ASCII, which a recipient "SHOULD treat as opaque data" (RFC 9110, section 5.5), while the spec says requests use UTF-8. A bank may refuse such a value (400) or treat it as opaque and serve the request; another refusal, or a 5xx, is reported.',
    review: [
      lowered(
        'assertion',
        'FMT-03.b: a TPP-Session-ID with bytes 0xFF 0xFE must be refused with 400',
        "RFC 9110 asks a recipient to treat such bytes as opaque; the spec's UTF-8 sentence binds the TPP. MAY: taken and refused with 400 both pass.",
      ),
    ],
  },
]);

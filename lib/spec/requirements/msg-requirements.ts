/** MSG: tppMessages items and the Link object (Resources > Payment initiation response). */
import { MESSAGE_CODES } from '../schemas/common-schemas.js';
import { defineArea } from './requirement-types.js';

const T = 'Resources > tppMessages item > ';

export const MSG = defineArea('MSG', [
  {
    id: 'MSG-01',
    level: 'MUST',
    section: `${T}category`,
    statement: 'Every tppMessages item has a category, ERROR or WARNING.',
    testedBy: 'automated',
  },
  {
    id: 'MSG-02',
    level: 'MUST',
    section: `${T}code`,
    statement:
      'Every tppMessages item has a code from the message codes of the Errors part (the 23 listed, REFERENCE_MIX_INVALID and RESOURCE_BLOCKED).',
    testedBy: 'automated',
    expect: { codes: MESSAGE_CODES },
    interpretation:
      'The item table says "one of the message codes in the Errors part": the 23 listed, REFERENCE_MIX_INVALID ("also seen") and RESOURCE_BLOCKED (shown for the basket 400) are all codes of that part. The error body uses the same list (ERR-43).',
  },
  {
    id: 'MSG-03',
    level: 'MAY',
    section: `${T}path`,
    statement: 'A tppMessages item may carry path, a string pointing at the offending element.',
    testedBy: 'automated',
  },
  {
    id: 'MSG-04',
    level: 'MUST',
    section: `${T}text`,
    statement: 'When a tppMessages item carries text, it is a string of at most 512 characters.',
    testedBy: 'automated',
  },
  {
    id: 'MSG-05',
    level: 'MUST',
    section: 'Resources > Link > href',
    statement: 'Every Link has href, a string with the address of the linked resource.',
    testedBy: 'automated',
    interpretation:
      'The spec says only "string": any URI reference passes, absolute URLs and paths resolved against the base URL alike, as in the Berlin Group examples.',
  },
  {
    id: 'MSG-06',
    level: 'MUST',
    section: 'Resources > Link > verbs',
    statement: 'Every Link has verbs, an array whose items are each GET, PUT, POST or DELETE.',
    testedBy: 'automated',
    interpretation:
      "The Link is the spec's type for the _links MSG-07 names. The Berlin Group link has only href; the spec requires verbs, and the spec wins where it defines the Link. It sets no minimum number of verbs, so an empty array passes. Links of the responses the spec does not type are MSG-09.",
  },
  {
    id: 'MSG-07',
    level: 'MUST',
    section: 'Resources > Link',
    statement:
      'Every member of _links in the payment initiation response and in the basket authorisation response (its 201 and its 401 body) is a Link with href and verbs.',
    testedBy: 'automated',
    interpretation:
      'These are the _links the spec types as maps of Link: the payment initiation response, and the signing basket authorisation response, whose _links row covers the 401 body that holds scaRedirect. A 401 with scaRedirect of another operation (an account read, a consent) is not typed by the spec and keeps the Berlin Group link (href only): its verbs are MSG-09.',
  },
  {
    id: 'MSG-08',
    level: 'SHOULD',
    section: 'Resources > Link > verbs',
    statement: 'The verbs of an scaRedirect link include GET, since a browser opens it.',
    testedBy: 'automated',
    basis: 'interpretation',
    interpretation: 'The spec does not say which verbs an scaRedirect link lists; a browser can only open it with GET.',
  },
  {
    id: 'MSG-09',
    level: 'SHOULD',
    section: 'Resources > Link',
    statement:
      "Links the spec does not type (accounts, transactions and their pages, consents, baskets, the scaRedirect by which an account read asks for SCA) carry verbs of the Link's four.",
    testedBy: 'automated',
    basis: 'interpretation',
    interpretation:
      "These shapes follow the Berlin Group, whose link (hrefType) has only href: a link without verbs there, or verbs outside GET, PUT, POST and DELETE, is a WARNING, not a FAIL. Carrying the Link's verbs everywhere is the better practice, since a TPP can then read every link the same way.",
  },
]);

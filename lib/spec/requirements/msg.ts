/** MSG: tppMessages items and the Link object (Resources > Payment initiation response). */
import { MESSAGE_CODES } from '../schemas/common.js';
import { defineArea } from './types.js';

const T = 'Resources > tppMessages item > ';

export const MSG = defineArea('MSG', [
  {
    id: 'MSG-01', level: 'MUST', section: `${T}category`,
    statement: 'Every tppMessages item has a category, ERROR or WARNING.',
    testedBy: 'automated',
  },
  {
    id: 'MSG-02', level: 'MUST', section: `${T}code`,
    statement: 'Every tppMessages item has a code from the message codes of the Errors part (the 23 listed, REFERENCE_MIX_INVALID and RESOURCE_BLOCKED).',
    testedBy: 'automated',
    expect: { codes: MESSAGE_CODES },
    interpretation: 'The item table says "one of the message codes in the Errors part": the 23 listed, REFERENCE_MIX_INVALID ("also seen") and RESOURCE_BLOCKED (shown for the basket 400) are all codes of that part. The error body uses the same list (ERR-43).',
  },
  {
    id: 'MSG-03', level: 'MAY', section: `${T}path`,
    statement: 'A tppMessages item may carry path, a string pointing at the offending element.',
    testedBy: 'automated',
  },
  {
    id: 'MSG-04', level: 'MUST', section: `${T}text`,
    statement: 'When a tppMessages item carries text, it is a string of at most 512 characters.',
    testedBy: 'automated',
  },
  {
    id: 'MSG-05', level: 'MUST', section: 'Resources > Link > href',
    statement: 'Every Link has href, a string with the address of the linked resource.',
    testedBy: 'automated',
    interpretation: 'The spec says only "string": any URI reference passes, absolute URLs and paths resolved against the base URL alike, as in the Berlin Group examples.',
  },
  {
    id: 'MSG-06', level: 'MUST', section: 'Resources > Link > verbs',
    statement: 'Every Link has verbs, an array whose items are each GET, PUT, POST or DELETE.',
    testedBy: 'automated',
    interpretation: 'The Berlin Group link has only href; the spec requires verbs, and the spec wins where it defines the Link (MSG-07). It sets no minimum number of verbs, so an empty array passes.',
  },
  {
    id: 'MSG-07', level: 'MUST', section: 'Resources > Link',
    statement: 'Every member of _links in the payment initiation response, the basket authorisation response and a 401 body with scaRedirect is a Link with href and verbs.',
    testedBy: 'automated',
    interpretation: 'These are the responses whose _links the spec types as maps of Link. The 401 body with scaRedirect is shown for the basket authorisation and is read as the same body wherever a 401 carries scaRedirect. Links of resources the spec does not show are MSG-09.',
  },
  {
    id: 'MSG-08', level: 'SHOULD', section: 'Resources > Link > verbs',
    statement: 'The verbs of an scaRedirect link include GET, since a browser opens it.',
    testedBy: 'automated',
    basis: 'interpretation',
    interpretation: 'The spec does not say which verbs an scaRedirect link lists; a browser can only open it with GET.',
  },
  {
    id: 'MSG-09', level: 'SHOULD', section: 'Resources > Link',
    statement: 'Links in resources the spec does not show (accounts, transactions and their pages, consents, baskets) also carry verbs, like the Link.',
    testedBy: 'automated',
    basis: 'interpretation',
    interpretation: 'These shapes follow the Berlin Group, whose link (hrefType) has only href, so a link without verbs there is a WARNING, not a FAIL; verbs that are given must be GET, PUT, POST or DELETE (MSG-06).',
  },
]);

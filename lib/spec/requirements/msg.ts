/** MSG: tppMessages items and the Link object (Resources > Payment initiation response). */
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
    statement: 'Every tppMessages item has a code taken from the message codes of the Errors part (the 23 listed and REFERENCE_MIX_INVALID).',
    testedBy: 'automated',
    interpretation: 'The list is closed for tppMessages. The error body `code` (ERR-04) is not restricted to it: signature and Berlin Group codes (SIGNATURE_MISSING, RESOURCE_BLOCKED, ...) may appear there.',
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
    interpretation: 'Absolute URLs and absolute paths (resolved against the base URL) are both accepted, as in Berlin Group examples.',
  },
  {
    id: 'MSG-06', level: 'MUST', section: 'Resources > Link > verbs',
    statement: 'Every Link has verbs, a non-empty array whose items are each GET, PUT, POST or DELETE.',
    testedBy: 'automated',
    interpretation: 'The Berlin Group Link has only href; the spec requires verbs, and the spec wins. An empty array names no usable method, so at least one verb is required.',
  },
  {
    id: 'MSG-07', level: 'MUST', section: 'Resources > Link',
    statement: 'Every member of every _links map, in any response including 401 bodies, is a Link with href and verbs.',
    testedBy: 'automated',
    interpretation: 'The Link type is defined with the payment response but the spec uses `_links` the same way everywhere (baskets, 401 bodies, accounts, pagination), so the rule applies to all.',
  },
  {
    id: 'MSG-08', level: 'SHOULD', section: 'Resources > Link > verbs',
    statement: 'The verbs of an scaRedirect link include GET, since a browser opens it.',
    testedBy: 'automated',
  },
]);

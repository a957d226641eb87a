/** PAG: pagination of transaction lists (Limits > Default transaction page size; transaction endpoint parameters). */
import { defineArea } from './requirement-types.js';

export const PAG = defineArea('PAG', [
  {
    id: 'PAG-01',
    level: 'MUST',
    section: 'Limits > Default transaction page size',
    statement: 'A transaction listing without parameters holds at most 200 booked transactions per page.',
    testedBy: 'needs-capability:sandbox-mock-data',
    interpretation:
      'Whether pending entries count towards the page size is not said; the check counts booked entries only, which a bank counting both also meets (the known issue says limit does not cut pending ones in production).',
  },
  {
    id: 'PAG-02',
    level: 'MUST',
    section: 'Limits > Default transaction page size',
    statement:
      'Pagination links generated for a listing without parameters keep the page size 200: they name limit=200, or lead to pages of at most 200 entries.',
    testedBy: 'needs-capability:sandbox-mock-data',
    interpretation:
      'The row "Default transaction page size 200 (also in generated pagination links)" has two readings: the links write the size (limit=200, the parameter the spec names), or the links page by it (a link naming no size leads to a page of at most 200 entries, the default). Both pass; a link naming another size fails. How the position is written (offset, a cursor) is not checked.',
  },
  {
    id: 'PAG-03',
    level: 'MUST',
    section: 'Endpoints > Other endpoints named > GET /v1/accounts/{id}/transactions',
    statement: 'limit=n returns at most n booked transactions; offset=k skips the first k of them (or the first k pages of n).',
    testedBy: 'automated',
    interpretation:
      'The spec names limit and offset without saying what offset counts, and the Berlin Group has no such parameter: skipping k transactions and skipping k pages of limit are both readings of the name, and both pass. An offset that skips nothing, or any other start, fails.',
  },
  {
    id: 'PAG-04',
    level: 'MUST',
    section: 'Endpoints > Other endpoints named > GET /v1/accounts/{id}/transactions',
    statement: 'Pagination links (first, next, previous, last) carry an href; where they list verbs, GET is among them.',
    testedBy: 'automated',
    basis: 'berlin-group',
    source: 'NextGenPSD2 XS2A 1.3 OpenAPI 1.3.8, schema _linksAccountReport (account, first, next, previous, last as hrefType)',
    interpretation:
      'The spec mentions generated pagination links without their shape: the Berlin Group names them, as links with an href. Verbs on them are MSG-09 (SHOULD); a page is read with GET.',
  },
  {
    id: 'PAG-05',
    level: 'SHOULD',
    section: 'Endpoints > Other endpoints named > GET /v1/accounts/{id}/transactions',
    statement: 'A page with more transactions after it links next; the last page does not.',
    testedBy: 'automated',
    basis: 'berlin-group',
    source: 'NextGenPSD2 XS2A 1.3 OpenAPI 1.3.8, schema _linksAccountReport (next, last)',
    interpretation:
      'Berlin Group link semantics, which the OpenAPI names without spelling out; the spec names only the links, hence SHOULD.',
  },
]);

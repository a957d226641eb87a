/** PAG: pagination of transaction lists (Limits > Default transaction page size; transaction endpoint parameters). */
import { defineArea } from './types.js';

export const PAG = defineArea('PAG', [
  {
    id: 'PAG-01', level: 'MUST', section: 'Limits > Default transaction page size',
    statement: 'Without limit, a transaction page holds at most 200 booked transactions.',
    testedBy: 'needs-capability:sandbox-mock-data',
    interpretation: 'The page size counts booked entries; pending entries are not paged, matching the known issue that limit does not cut pending ones in production.',
  },
  {
    id: 'PAG-02', level: 'MUST', section: 'Limits > Default transaction page size',
    statement: 'Pagination links generated for a listing without parameters carry the page size 200.',
    testedBy: 'needs-capability:sandbox-mock-data',
    interpretation: 'The hrefs of first, next, previous and last carry limit=200 (and an offset).',
  },
  {
    id: 'PAG-03', level: 'MUST', section: 'Endpoints > Other endpoints named > GET /v1/accounts/{id}/transactions',
    statement: 'limit=n returns at most n booked transactions; offset=k skips the first k of them.',
    testedBy: 'automated',
  },
  {
    id: 'PAG-04', level: 'MUST', section: 'Endpoints > Other endpoints named > GET /v1/accounts/{id}/transactions',
    statement: 'Pagination links (first, next, previous, last) are Link objects with href and verbs GET.',
    testedBy: 'automated',
  },
  {
    id: 'PAG-05', level: 'SHOULD', section: 'Endpoints > Other endpoints named > GET /v1/accounts/{id}/transactions',
    statement: 'A page with more transactions after it links next; the last page does not.',
    testedBy: 'automated',
    interpretation: 'Berlin Group link semantics; the spec names only the links, hence SHOULD.',
  },
]);

/** PSU: identifiers of the PSU (Resources > Identifiers of the PSU). */
import { defineArea } from './types.js';

const P = 'Resources > Identifiers of the PSU > ';

export const PSU = defineArea('PSU', [
  {
    id: 'PSU-01', level: 'MUST', section: `${P}psu-id`,
    statement: 'psu-id is an RFC 4122 UUID.',
    testedBy: 'automated',
  },
  {
    id: 'PSU-02', level: 'MUST', section: `${P}psu-id`,
    statement: 'psu-id is unique per TPP and bank pair: two TPPs get different psu-ids for the same PSU.',
    testedBy: 'needs-capability:second-tpp',
  },
  {
    id: 'PSU-03', level: 'MUST', section: `${P}psu-id`,
    statement: 'psu-id is stable: a later SCA of the same PSU for the same TPP yields the same psu-id.',
    testedBy: 'automated',
  },
  {
    id: 'PSU-04', level: 'MUST', section: `${P}psu-id`,
    statement: 'The TPP obtains psu-id from the redirect after SCA.',
    testedBy: 'automated',
  },
  {
    id: 'PSU-05', level: 'MUST', section: `${P}psu-id`,
    statement: 'The TPP persists psu-id and sends it in PSU-ID later; the bank serves such later requests (within consent and session).',
    testedBy: 'automated',
    expect: { status: [200] },
    interpretation: 'Persisting binds the TPP; the bank side is to recognise the persisted id on later requests, which the suite checks.',
  },
  {
    id: 'PSU-06', level: 'MUST', section: `${P}psu-id`,
    statement: 'A psu-id issued to one TPP is not honoured when another TPP sends it.',
    testedBy: 'needs-capability:second-tpp',
    interpretation: 'Follows from "unique per TPP and bank pair": another TPP must get 401 with scaRedirect or 401 PSU_CREDENTIALS_INVALID, never the data.',
  },
  {
    id: 'PSU-07', level: 'MUST', section: `${P}psu-id`,
    statement: 'A well-formed PSU-ID the bank never issued gets no data: 401 with scaRedirect or an error.',
    testedBy: 'automated',
  },
  {
    id: 'PSU-08', level: 'MUST', section: `${P}psu-corporate-id`,
    statement: 'psu-corporate-id identifies one corporate agreement of the PSU; it is a UUID in the redirect and goes in PSU-CORPORATE-ID.',
    testedBy: 'needs-capability:corporate-psu',
  },
  {
    id: 'PSU-09', level: 'MUST', section: `${P}TPP-Session-ID`,
    statement: 'TPP-Session-ID is chosen by the TPP and ties the redirect to the request that started SCA.',
    testedBy: 'automated',
  },
  {
    id: 'PSU-10', level: 'MUST', section: `${P}TPP-Session-ID`,
    statement: 'TPP-Session-ID governs the SCA session (see SES).',
    testedBy: 'automated',
  },
]);

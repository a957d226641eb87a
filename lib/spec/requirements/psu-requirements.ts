/** PSU: identifiers of the PSU (Resources > Identifiers of the PSU). */
import { CLIENT_ERROR_STATUSES, defineArea } from './requirement-types.js';

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
    expect: { status: CLIENT_ERROR_STATUSES },
    interpretation: 'Follows from "unique per TPP and bank pair": for the other TPP the id is unknown, so it gets what PSU-07 gives (typically 401 with scaRedirect), never the data; the code is checked under ERR-23.',
  },
  {
    id: 'PSU-07', level: 'MUST', section: `${P}psu-id`,
    statement: 'A well-formed PSU-ID the bank never issued gets no data: 401 with scaRedirect or another 4xx error.',
    testedBy: 'automated',
    expect: { status: CLIENT_ERROR_STATUSES },
    interpretation: 'The spec names no status for an unknown PSU-ID: starting a fresh SCA (401 with scaRedirect) and refusing with an error both pass; any data or 5xx fails.',
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

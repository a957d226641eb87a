/** PSU: identifiers of the PSU (Resources > Identifiers of the PSU). */
import { kept, lowered, variant } from './requirement-review.js';
import { CLIENT_ERROR_STATUSES, defineArea } from './requirement-types.js';

const P = 'Resources > Identifiers of the PSU > ';

export const PSU = defineArea('PSU', [
  {
    id: 'PSU-01',
    level: 'MUST',
    section: `${P}psu-id`,
    statement: 'psu-id is an RFC 4122 UUID.',
    testedBy: 'automated',
  },
  {
    id: 'PSU-02',
    level: 'SHOULD',
    section: `${P}psu-id`,
    statement: 'psu-id is unique per TPP and bank pair: two TPPs get different psu-ids for the same PSU.',
    testedBy: 'needs-capability:second-tpp',
    interpretation:
      '"Unique per TPP and bank pair" has two readings: unique within each pair (no two PSUs share an id at a TPP), or an id of each pair (two TPPs never get the same id for a PSU). Ids of their own per TPP keep one TPP from naming a PSU to another; the first reading does not demand it, so different ids are the better practice, a WARNING otherwise. PSU-06 is judged where the ids differ.',
    basis: 'interpretation',
    review: [
      lowered(
        'beyond-text',
        'MUST give two TPPs different psu-ids for one PSU',
        '"unique per TPP and bank pair" may say only that the id is unique within the pair. SHOULD, as the reading that keeps a TPP\'s id its own.',
      ),
    ],
  },
  {
    id: 'PSU-03',
    level: 'MUST',
    section: `${P}psu-id`,
    statement: 'psu-id is stable: a later SCA of the same PSU for the same TPP yields the same psu-id.',
    testedBy: 'automated',
  },
  {
    id: 'PSU-04',
    level: 'MUST',
    section: `${P}psu-id`,
    statement: 'The TPP obtains psu-id from the redirect after SCA.',
    testedBy: 'automated',
  },
  {
    id: 'PSU-05',
    level: 'MUST',
    section: `${P}psu-id`,
    statement: 'The TPP persists psu-id and sends it in PSU-ID later; the bank serves such later requests (within consent and session).',
    testedBy: 'automated',
    expect: { status: [200] },
    interpretation: 'Persisting binds the TPP; the bank side is to recognise the persisted id on later requests, which the suite checks.',
    review: [
      variant(
        'assertion',
        'SCA-13.a read under a TPP-Session-ID no SCA completed under',
        ['unknown-session-asks-for-sca'],
        'A bank may ask for SCA under a TPP-Session-ID it has never seen; where it does, the persisted psu-id is now sent under the TPP-Session-ID of the SCA (Authentication 12: repeat the call).',
      ),
    ],
  },
  {
    id: 'PSU-06',
    level: 'MUST',
    section: `${P}psu-id`,
    statement: 'A psu-id issued to one TPP is not honoured when another TPP sends it.',
    testedBy: 'needs-capability:second-tpp',
    expect: { status: CLIENT_ERROR_STATUSES },
    interpretation:
      'Follows from "unique per TPP and bank pair": for the other TPP the id is unknown, so it gets what PSU-07 gives (typically 401 with scaRedirect), never the data; the code is checked under ERR-23.',
    review: [
      kept(
        'refusal',
        "another TPP's psu-id gets no data (a 4xx)",
        'Identifiers of the PSU: psu-id is "unique per TPP and bank pair": for another TPP the id names no PSU; no status is named, so any 4xx passes.',
      ),
    ],
  },
  {
    id: 'PSU-07',
    level: 'MUST',
    section: `${P}psu-id`,
    statement: 'A well-formed PSU-ID the bank never issued gets no data: 401 with scaRedirect or another 4xx error.',
    testedBy: 'automated',
    expect: { status: CLIENT_ERROR_STATUSES },
    interpretation:
      'The spec names no status for an unknown PSU-ID: starting a fresh SCA (401 with scaRedirect) and refusing with an error both pass; any data or 5xx fails.',
    review: [
      kept(
        'refusal',
        'a PSU-ID never issued gets no data (a 4xx)',
        'Identifiers of the PSU: psu-id is "unique per TPP and bank pair … obtained from the redirect after SCA": an id never issued names no PSU; no status is named, so any 4xx passes.',
      ),
    ],
  },
  {
    id: 'PSU-08',
    level: 'MUST',
    section: `${P}psu-corporate-id`,
    statement: 'psu-corporate-id identifies one corporate agreement of the PSU; it is a UUID in the redirect and goes in PSU-CORPORATE-ID.',
    testedBy: 'needs-capability:corporate-psu',
  },
  {
    id: 'PSU-09',
    level: 'MUST',
    section: `${P}TPP-Session-ID`,
    statement: 'TPP-Session-ID is chosen by the TPP and ties the redirect to the request that started SCA.',
    testedBy: 'automated',
  },
  {
    id: 'PSU-10',
    level: 'MUST',
    section: `${P}TPP-Session-ID`,
    statement: 'TPP-Session-ID governs the SCA session (see SES).',
    testedBy: 'automated',
    review: [
      variant(
        'assertion',
        'SES-05.a: the old TPP-Session-ID must no longer be served',
        ['session-governs-sca-prompts-only', 'invalidated-session-served-from-consent'],
        'What the TPP-Session-ID governs may be the SCA prompts alone (Authentication 10); where the bank serves reads from the consent, the session is judged on the prompts it spares.',
      ),
    ],
  },
]);

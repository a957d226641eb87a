/** SES: every row of the SCA session table (States > SCA session (TPP-Session-ID)). */
import { variant } from './requirement-review.js';
import { defineArea } from './requirement-types.js';

/** What a session is seen by, in each reading of what a TPP-Session-ID governs (reads, or new SCA prompts only). */
const SEEN_BY =
  'Where the bank serves a present PSU\'s reads from the consent whatever TPP-Session-ID they carry (the session then "prevents new SCA prompts" only, Authentication 10), the session is seen by a new SCA started under its TPP-Session-ID: a session in force spares the PSU\'s login, one no longer in force does not. Where the bank ties reads to the session, by those reads.';

const S = 'States > SCA session > ';

export const SES = defineArea('SES', [
  {
    id: 'SES-01',
    level: 'MUST',
    section: `${S}none / request requiring SCA`,
    statement: 'A request needing SCA without a valid SCA starts a pending SCA: the response carries scaRedirect.',
    testedBy: 'automated',
  },
  {
    id: 'SES-02',
    level: 'MUST',
    section: `${S}SCA pending / PSU completes SCA`,
    statement: 'A completed SCA makes the session valid for up to 1 hour and redirects the PSU to the TPP with query parameters.',
    testedBy: 'automated',
    interpretation:
      'A valid session is seen on the call the TPP makes after SCA (Authentication 12, step 7): under the TPP-Session-ID of the SCA, with the psu-id and the PSU present (PSU-IP-Address), it is served without a new SCA. A TPP-Session-ID no SCA completed under may be served from the consent or asked for SCA: both readings pass (variant unknown-session-asks-for-sca).',
  },
  {
    id: 'SES-03',
    level: 'MUST',
    section: `${S}SCA pending / SCA fails`,
    statement: 'A failed SCA leaves no session, and the redirect carries the error parameters.',
    testedBy: 'needs-capability:sca-abort',
  },
  {
    id: 'SES-04',
    level: 'MUST',
    section: `${S}session valid / 1 hour passes`,
    statement: 'One hour after SCA the session expires and a new SCA is required.',
    testedBy: 'needs-capability:clock-control',
    interpretation: `The hour runs from the completion of SCA, not from the last use. ${SEEN_BY}`,
    review: [
      variant(
        'assertion',
        'SES-04.a: a read under the expired session must ask for SCA',
        ['session-governs-sca-prompts-only', 'invalidated-session-served-from-consent'],
        'Authentication 10 and 11: the session "prevents new SCA prompts in that window" and consent access is renewed every 180 days: a bank may serve a PSU\'s reads from the consent whatever session they carry. The hour is then judged on a new SCA under the session, which must prompt the PSU again; the read alone decides only where the bank ties reads to the session.',
      ),
    ],
  },
  {
    id: 'SES-05',
    level: 'MUST',
    section: `${S}session valid / new TPP-Session-ID, SCA completed`,
    statement: 'A completed SCA under a new TPP-Session-ID makes the new session valid and invalidates the old one.',
    testedBy: 'automated',
    expect: { status: [201, 401] },
    interpretation: `Sessions are per PSU and TPP: a request under the old TPP-Session-ID afterwards needs SCA again, a 401 with scaRedirect (or, for a payment, a 201 with scaRedirect). ${SEEN_BY} An invalidated session whose reads are still served from the consent passes, as long as it no longer spares the PSU an SCA.`,
    review: [
      variant(
        'assertion',
        'SES-05.a: a read under the invalidated session must ask for SCA',
        ['session-governs-sca-prompts-only', 'invalidated-session-served-from-consent'],
        "The table invalidates the old session; it does not say the consent stops serving the PSU's reads under its id. Judged on the SCA prompts the old session no longer spares, where its reads are served.",
      ),
    ],
  },
  {
    id: 'SES-06',
    level: 'MUST',
    section: `${S}session valid / new TPP-Session-ID, SCA aborted`,
    statement: 'An SCA started under a new TPP-Session-ID and not completed leaves the old session valid.',
    testedBy: 'needs-capability:sca-abort',
    interpretation:
      '"Aborted": the PSU logs in under the new TPP-Session-ID and cancels on the consent page (the target\'s scaVariants.cancel-at-consent). An SCA that is only started (its scaRedirect never followed) tells nothing about the PSU, so the bank could not tie it to the old session anyway. Seen by a read under the old session, which a bank serving reads from the consent serves anyway.',
  },
  {
    id: 'SES-07',
    level: 'SHOULD',
    section: `${S}SCA pending / PSU completes SCA`,
    statement: 'The session lasts the whole hour: a call under it 59 minutes after the SCA needs no new SCA.',
    testedBy: 'needs-capability:clock-control',
    basis: 'interpretation',
    interpretation:
      'The table says "session valid for up to 1 hour" and Authentication 10 "lasts up to 1 hour": one reading makes the hour the length of every session, the other only its bound, so a bank may end sessions sooner. The first spares the PSU prompts (the purpose the spec gives the session), hence SHOULD; the bound itself is SES-04 and LIM-02.',
  },
]);

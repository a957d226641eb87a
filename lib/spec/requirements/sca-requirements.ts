/** SCA: Authentication items 9 to 16. */
import { kept, variant } from './requirement-review.js';
import { defineArea } from './requirement-types.js';

const A = 'Authentication ';

const ONE_LINK_ONE_SCA =
  "The spec does not say how long an scaRedirect serves. It names SCA with dynamic linking for payments (Authentication 10), and the PSD2 RTS that defines it accepts an authentication code once and voids it when what it authorises changes (articles 4 and 5): read here as one link, one SCA, for one resource in the state the link was issued for. How long an unused link lives (its expiry) is the bank's, and not judged.";

export const SCA = defineArea('SCA', [
  {
    id: 'SCA-01',
    level: 'MUST',
    section: `${A}9`,
    statement: "SCA uses the redirect flow: scaRedirect href is an https address that opens the bank's SCA site.",
    testedBy: 'automated',
    interpretation:
      'The href may be absolute or relative (MSG-05, as the Berlin Group examples write links): a relative one is resolved against the address of the request that returned it, and the address it resolves to must be https (Authentication 1: TLS always).',
  },
  {
    id: 'SCA-02',
    level: 'MUST',
    section: `${A}9`,
    statement: 'Whenever SCA is needed, on any endpoint, the response carries an scaRedirect link.',
    testedBy: 'automated',
    interpretation: 'The spec tells the TPP to check every response; the bank side is that no response needing SCA omits the link.',
  },
  {
    id: 'SCA-03',
    level: 'MAY',
    section: `${A}9`,
    statement: 'The bank may exempt any transaction from SCA or require SCA on any transaction.',
    testedBy: 'manual:a permission; the suite accepts both a payment with and without scaRedirect',
  },
  {
    id: 'SCA-04',
    level: 'MAY',
    section: `${A}9`,
    statement:
      'TPP-Redirect-URI is required on all requests, since the need for SCA cannot be foreseen: an account read without it may be refused with 400, or served where it needs no SCA.',
    testedBy: 'automated',
    expect: { status: [400] },
    interpretation:
      'The sentence gives the TPP its duty (judged on its traffic as TPP-24) and the reason: a request may need SCA, which needs the address. A bank may refuse every request without it (400; the code under ERR-16), or serve one that needs no SCA; both pass, another refusal is reported. Sandbox mock-data operations never lead to SCA and are excluded.',
    review: [
      variant(
        'assertion',
        'SCA-04.a-d: the bank must refuse a read without TPP-Redirect-URI',
        ['redirect-uri-only-where-sca'],
        'Authentication 9: "The TPP-Redirect-URI header is required on all requests because the need for SCA cannot be foreseen" makes sending it the TPP\'s duty; the bank\'s refusal is not written. MAY: served and refused with 400 both pass.',
      ),
    ],
  },
  {
    id: 'SCA-05',
    level: 'MUST',
    section: `${A}9`,
    statement: 'Consent is collected in the SCA step.',
    testedBy: 'automated',
  },
  {
    id: 'SCA-06',
    level: 'MUST',
    section: `${A}10`,
    statement: 'Within one TPP-Session-ID an SCA holds for up to 1 hour: further requests in that time need no new SCA.',
    testedBy: 'automated',
    interpretation:
      'Judged right after the SCA: a call under its TPP-Session-ID needs no new SCA. "Up to 1 hour" bounds the window; whether it lasts the whole hour is SES-07.',
  },
  {
    id: 'SCA-07',
    level: 'MUST',
    section: `${A}10`,
    statement: 'The session does not cover services that need SCA with dynamic linking: each payment still gets its own SCA.',
    testedBy: 'automated',
    interpretation:
      'A payment in a valid session must still carry scaRedirect, unless the bank exempts it (SCA-03: "may exempt a transaction from SCA"). The two are told apart by the same payment initiated outside any session: a bank that exempts it there too exempts it (not evaluated, reported); one that asks for SCA there but not in the session lets the session stand in for the payment\'s own SCA, which fails.',
  },
  {
    id: 'SCA-08',
    level: 'MUST',
    section: `${A}10`,
    statement: 'Renewing a session requires a new SCA.',
    testedBy: 'needs-capability:clock-control',
  },
  {
    id: 'SCA-09',
    level: 'MUST',
    section: `${A}11`,
    statement: 'SCA for account access is renewed every 180 days (previously 90): access works until day 180 and needs SCA after.',
    testedBy: 'needs-capability:clock-control',
    interpretation:
      'Access on day 179 is shown by an account read that is served with the PSU present or without the PSU: a bank may ask a present PSU for a fresh SCA once the hour of the SCA session is over (SES-04) while the consent still serves reads without the PSU, or serve both from the consent. On day 181 neither is served: a read with the PSU present gets an scaRedirect.',
    review: [
      variant(
        'contradiction',
        "SCA-09 lets a bank serve a present PSU's reads from the consent whatever the session, which SES-05 (and SES-04, PSU-10, LIM-02) failed",
        ['session-governs-sca-prompts-only', 'invalidated-session-served-from-consent', 'unknown-session-asks-for-sca'],
        'Each reading of the session table is a variant the whole suite passes: the session rules are judged on reads where the bank ties reads to the session, else on the SCA prompts a session spares.',
      ),
    ],
  },
  {
    id: 'SCA-10',
    level: 'MUST',
    section: `${A}12`,
    statement: 'Account access step 1-2: a first call to a resource answers 401 with scaRedirect.',
    testedBy: 'automated',
    expect: { status: [401] },
    review: [kept('refusal', 'answers 401 with scaRedirect', 'Authentication 12: "call a resource; receive 401 with scaRedirect".')],
  },
  {
    id: 'SCA-11',
    level: 'SHOULD',
    section: `${A}12`,
    statement: 'The SCA site can be shown in a frame: it does not forbid framing (X-Frame-Options, frame-ancestors).',
    testedBy: 'automated',
    basis: 'interpretation',
    interpretation:
      'The TPP may "show the link in a frame"; that only works if the SCA pages allow framing. Not written as a bank duty, hence SHOULD.',
  },
  {
    id: 'SCA-12',
    level: 'MUST',
    section: `${A}12`,
    statement: 'Account access steps 3-5: the PSU selects accounts and is sent to the redirect address with psu-id.',
    testedBy: 'automated',
  },
  {
    id: 'SCA-13',
    level: 'MUST',
    section: `${A}12`,
    statement: 'Account access steps 6-7: the call repeated with PSU-ID returns the selected accounts.',
    testedBy: 'automated',
    expect: { status: [200] },
    review: [
      variant(
        'assertion',
        'SCA-13.a read the consent under a TPP-Session-ID no SCA completed under',
        ['unknown-session-asks-for-sca'],
        "Authentication 12 repeats the call after SCA; a bank may ask for SCA again under a TPP-Session-ID it has never seen. The worker's consent (lib/fixtures, consentedPsu) now reads under the TPP-Session-ID of its SCA wherever the bank asks for SCA under one it has never seen.",
      ),
    ],
  },
  {
    id: 'SCA-14',
    level: 'MUST',
    section: `${A}13`,
    statement: 'In corporate context later calls carry PSU-ID and PSU-CORPORATE-ID and return the agreement accounts.',
    testedBy: 'needs-capability:corporate-psu',
    expect: { status: [200] },
  },
  {
    id: 'SCA-15',
    level: 'MUST',
    section: `${A}13`,
    statement: 'The corporate id comes from the SCA redirect (AIS consent flow, GET /v1/user for PISPs) or from GET /v1/agreements.',
    testedBy: 'needs-capability:corporate-psu',
  },
  {
    id: 'SCA-16',
    level: 'MUST',
    section: `${A}13`,
    statement: 'A new corporate context triggers a new consent flow: a PSU-CORPORATE-ID without consent gets 401 with scaRedirect.',
    testedBy: 'needs-capability:corporate-psu',
    expect: { status: [401] },
    interpretation: 'A consent flow starts as Authentication 12 describes: 401 with scaRedirect.',
    review: [
      kept(
        'refusal',
        'a corporate context without consent answers 401 with scaRedirect',
        'Authentication 13: "a new corporate context triggers a new consent flow", which starts as Authentication 12 does: "receive 401 with scaRedirect".',
      ),
    ],
  },
  {
    id: 'SCA-17',
    level: 'MUST',
    section: `${A}13`,
    statement:
      'A corporate user request without PSU-CORPORATE-ID gets 400: a payment initiation of a corporate PSU in context CORPORATE without it is refused.',
    testedBy: 'needs-capability:corporate-psu',
    expect: { status: [400] },
    interpretation:
      'What makes a request "corporate" is not said. Unmistakable is a payment initiation that names the context itself (PSU-Context CORPORATE, a header of its table) without the agreement: that gets 400 (the code is checked under ERR-16). An account read carrying only a corporate PSU-ID, or PSU-Context (a header the spec names for payment initiation only), may be read as corporate (400) or as a private request of that PSU (served, or 401 with scaRedirect for a consent in that context): both readings pass, so such reads are not judged here.',
    review: [kept('refusal', 'refused with 400', 'Authentication 13: "A corporate user request without PSU-CORPORATE-ID gets 400."')],
  },
  {
    id: 'SCA-18',
    level: 'MUST',
    section: `${A}14`,
    statement: 'After SCA the PSU sees a checkbox list of accounts with the already consented ones pre-selected.',
    testedBy: 'needs-capability:consent-selection',
    interpretation:
      "Observed through what the PSU consents to: after consenting to one account, a PSU who confirms the next consent page unchanged (the target's scaVariants.confirm-as-offered) keeps exactly that account. Nothing pre-selected gives none, everything pre-selected gives all.",
  },
  {
    id: 'SCA-19',
    level: 'MUST',
    section: `${A}14`,
    statement: 'Deselecting an account revokes its consent, selecting grants it; after confirming the PSU is redirected.',
    testedBy: 'needs-capability:consent-selection',
    interpretation:
      'Selecting and deselecting particular accounts needs page steps written for the target; the default SCA steps only confirm what is offered.',
  },
  {
    id: 'SCA-20',
    level: 'MUST',
    section: `${A}15`,
    statement: 'The PSU may revoke consent directly with the bank at any time; the TPP then loses access.',
    testedBy: 'needs-capability:bank-channel',
  },
  {
    id: 'SCA-21',
    level: 'INFO',
    section: `${A}15`,
    statement: 'The bank need not tell the TPP about a revocation.',
    testedBy: 'manual:a permission; nothing to observe',
  },
  {
    id: 'SCA-22',
    level: 'MAY',
    section: `${A}15`,
    statement: 'The bank may remove payment permission for an account that stays visible in account information.',
    testedBy: 'manual:a permission; nothing to fail',
  },
  {
    id: 'SCA-23',
    level: 'MUST',
    section: `${A}16`,
    statement: "TPP-Redirect-Preferred: false on every request triggers biometric authentication in the bank's mobile app where available.",
    testedBy: 'needs-capability:mobile-app',
  },
  {
    id: 'SCA-24',
    level: 'SHOULD',
    section: `${A}10`,
    statement:
      'An scaRedirect link serves one SCA: opened again after that SCA completed or failed, it ends in the failure redirect or an error page, never a success, and changes nothing.',
    testedBy: 'automated',
    basis: 'interpretation',
    interpretation: `${ONE_LINK_ONE_SCA} Checked in the browser, as the PSU: the link is opened again and the target's SCA steps are run on it; a failure redirect, an error page (an HTTP error status, or a page the steps cannot go through) pass, a success redirect fails, and so does a change of the payment's status.`,
  },
  {
    id: 'SCA-25',
    level: 'SHOULD',
    section: `${A}10`,
    statement:
      'An unused payment scaRedirect closes once its payment moves on without it (cancelled by the TPP, or authorised in a signing basket): it then ends in failure or an error page.',
    testedBy: 'automated',
    basis: 'interpretation',
    interpretation: `${ONE_LINK_ONE_SCA} A link is for its payment in the state it was issued in: once the TPP cancelled the payment, or the PSU authorised it through a basket, confirming it through its own link again would tell the TPP of an SCA (or a rejection) that authorised nothing. When a payment that joined a basket stops taking its own link before the basket's SCA is the bank's: it is judged after the basket's SCA.`,
  },
]);

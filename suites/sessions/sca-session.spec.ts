/**
 * The SCA session (specification, "SCA session (TPP-Session-ID)", Authentication 10, Limits): every row of
 * the state table, as a TPP sees it on calls with the PSU present under the TPP-Session-ID of the SCA.
 * Each scenario takes a PSU of its own (a session is per PSU: another scenario's SCA would replace it), and
 * time is moved with the target's clock, never waited for. What a TPP-Session-ID governs has two readings:
 * the PSU's reads as well, or only new SCA prompts ("prevents new SCA prompts in that window",
 * Authentication 10), the reads being the consent's (renewed every 180 days). Where the bank serves a read
 * the first reading would refuse, the session is judged by the prompts it spares (promptedAgain).
 */
import { randomUUID } from 'node:crypto';
import {
  type CheckResult,
  consentServesReads,
  isSuccess,
  readsNotRefused,
  PrerequisiteUnmet,
  scaRedirectFrom,
  scaRedirectOf,
  scenario,
  type ScenarioFixtures,
  test,
  type TppClient,
  type TppResponse,
} from '../../lib/fixtures/index.js';

const HOUR = 3600;

type Psu = Awaited<ReturnType<ScenarioFixtures['ownPsu']>>;

const asksForSca = (response: TppResponse) => scaRedirectOf(response) !== undefined;

interface Redirect {
  url: string;
  params: Record<string, string>;
}

interface Session {
  sessionId: string;
  psuId: string;
  /** The 401 that started the SCA. */
  started: TppResponse;
  redirect: Redirect & { pages: string[] };
  /** A client under this session's TPP-Session-ID, the PSU present. */
  client: () => TppClient;
  /** GET /v1/accounts under this session with the psu-id: what the TPP does after SCA (Authentication 12, step 7). */
  read: () => Promise<TppResponse>;
}

/** A completed SCA of `psu` under a new TPP-Session-ID of its own, started by GET /v1/accounts without PSU-ID. */
async function openSession({ newTpp, sca, paths }: Pick<ScenarioFixtures, 'newTpp' | 'sca' | 'paths'>, psu: Psu): Promise<Session> {
  const sessionId = randomUUID();
  const client = () => newTpp({ sessionId });
  const started = await client().get(paths('accounts'));
  const redirect = await sca.authorise(scaRedirectFrom(started), psu);
  const psuId = redirect.params['psu-id'];
  if (redirect.outcome !== 'success' || psuId === undefined)
    throw new PrerequisiteUnmet(`the SCA under TPP-Session-ID ${sessionId} did not succeed: ${redirect.url}`);
  return { sessionId, psuId, started, redirect, client, read: () => client().get(paths('accounts'), { headers: { 'PSU-ID': psuId } }) };
}

/**
 * Whether a new SCA of the PSU under the session's TPP-Session-ID prompts the PSU again: a consent request
 * naming the PSU (PSU-ID; the bank-offered consent answers with an SCA redirect) is followed, and the PSU is
 * prompted when it goes through as many pages as at the session's own SCA, its login among them; a session in
 * force spares the login (Authentication 10). The SCA it completes renews the session. Where the bank gives no
 * SCA redirect there, nothing can be seen.
 */
async function promptedAgain(
  { sca, paths }: Pick<ScenarioFixtures, 'sca' | 'paths'>,
  session: Session,
  psu: Psu,
): Promise<{ prompted: boolean; completed: boolean; shown: string }> {
  const asked = await session.client().post(paths('bankOfferedConsents'), {}, { headers: { 'PSU-ID': session.psuId } });
  const redirect = await sca.authorise(scaRedirectFrom(asked), psu);
  const prompted = redirect.pages.length >= session.redirect.pages.length;
  const shown = `a new SCA under TPP-Session-ID ${session.sessionId} went through ${redirect.pages.length} page(s), the session's own ${session.redirect.pages.length}: ${prompted ? 'the PSU was prompted again' : 'the login was spared'}`;
  return { prompted, completed: redirect.outcome === 'success', shown };
}

/**
 * Whether a read under a session says something of the session: not when it is refused without asking for SCA
 * (the AISP role refused is GEN-03's), nor when SCA is asked again also under a TPP-Session-ID no SCA was
 * completed under (a consent that serves no reads is SCA-13's). Else the scenario cannot judge the session.
 */
async function judgeableAsSession(
  { newTpp, paths }: Pick<ScenarioFixtures, 'newTpp' | 'paths'>,
  psuId: string,
  read: TppResponse,
): Promise<void> {
  if (isSuccess(read)) return;
  readsNotRefused(read, 'the session');
  consentServesReads(
    await newTpp({ sessionId: randomUUID() }).get(paths('accounts'), { headers: { 'PSU-ID': psuId } }),
    'the consent, under a TPP-Session-ID of no SCA,',
  );
}

test(
  ...scenario(
    'SES-02.a',
    'a request needing SCA gets an scaRedirect; the completed SCA redirects with the session and opens it: the next call under it needs no new SCA',
    { checks: ['SES-01', 'SES-02', 'SCA-06', 'PSU-10'], ownPsu: true },
    async ({ newTpp, sca, paths, check, ownPsu }) => {
      const psu = await ownPsu();
      const firstCall = await newTpp().get(paths('accounts'));
      check.that('SES-01', asksForSca(firstCall), {
        expected: 'a request without a valid SCA answered with an scaRedirect link',
        response: firstCall,
      });
      const session = await openSession({ newTpp, sca, paths }, psu);
      const read = await session.read();
      await judgeableAsSession({ newTpp, paths }, session.psuId, read);
      // Which parameters the redirect carries is for the Events rules (tpp-session-id: EVT-06); the session needs it to carry some.
      const redirected = Object.keys(session.redirect.params).length > 0;
      check.that('SES-02', redirected && isSuccess(read), {
        expected: 'a redirect to the TPP with query parameters, then the call under the TPP-Session-ID of the SCA served (2xx)',
        actual: `${session.redirect.url}; then HTTP ${read.status}`,
        response: read,
      });
      check.that('SCA-06', isSuccess(read), {
        expected: 'a call under the TPP-Session-ID of the SCA, within the hour, served without a new SCA (2xx)',
        response: read,
      });
      check.that('PSU-10', isSuccess(read), {
        expected: 'the TPP-Session-ID of the SCA carries the session: a call under it served (2xx)',
        response: read,
      });
    },
  ),
);

test(
  ...scenario(
    'SES-04.a',
    'the session holds after SCA (the whole hour, where the bank keeps it so long) and expires after the hour: a new SCA is required (SCA_EXPIRED), and renews it',
    {
      checks: ['SCA-06', 'SES-07', 'SES-04', 'LIM-02', 'ERR-19', 'SCA-08'],
      ownPsu: true,
      needs: ['clock-control'],
      globalState: 'moves the target clock past the hour of an SCA session',
    },
    async ({ newTpp, sca, paths, check, ownPsu, sandboxClock }) => {
      const psu = await ownPsu();
      const session = await openSession({ newTpp, sca, paths }, psu);
      const first = await session.read();
      await judgeableAsSession({ newTpp, paths }, session.psuId, first);
      const held = check.that('SCA-06', isSuccess(first), {
        expected: 'a call under the session right after SCA served (2xx)',
        response: first,
      });
      // "Up to 1 hour": the whole hour is the better reading (SES-07), a shorter session keeps the bound.
      // A minute's margin on either side of the hour: the clock keeps running while the scenario does.
      const before = HOUR - 60;
      await sandboxClock.shift(before);
      check.that(
        'SES-07',
        isSuccess(await session.read()),
        { expected: 'a call under the session 59 minutes after SCA served (2xx)' },
        { after: held },
      );
      const after = HOUR + 60;
      await sandboxClock.shift(after);
      const late = await session.read();
      if (isSuccess(late)) {
        // Served from the consent (a TPP-Session-ID that governs SCA prompts only): the hour shows in whether a new SCA under it prompts
        // the PSU again.
        const probe = await promptedAgain({ sca, paths }, session, psu);
        const expiry = {
          expected:
            'a read under the session 61 minutes after SCA answered with an scaRedirect, or (reads served from the consent) a new SCA under it that prompts the PSU again',
          actual: `the read served (HTTP ${late.status}); ${probe.shown}`,
        };
        const expired = check.that('SES-04', probe.prompted, expiry, { after: held });
        check.that('LIM-02', probe.prompted, expiry, { after: held });
        check.notEvaluated(
          ['ERR-19'],
          'not evaluated: the bank serves reads under the expired session from the consent, so no 401 carries a code to judge',
        );
        const renewed = await session.read();
        check.that(
          'SCA-08',
          probe.completed && isSuccess(renewed),
          {
            expected: 'the new SCA under the expired TPP-Session-ID completed, and a call under it served',
            actual: `${probe.shown}; then HTTP ${renewed.status}`,
            response: renewed,
          },
          { after: expired },
        );
        return;
      }
      const expiry = { expected: 'a call under the session 61 minutes after SCA answered with an scaRedirect (a new SCA)', response: late };
      const expired = check.that('SES-04', asksForSca(late), expiry, { after: held });
      check.that('LIM-02', asksForSca(late), expiry, { after: held });
      const answered = check.status('ERR-19', late, { after: expired });
      check.code('ERR-19', late, { after: answered });

      // Renewing the session is a new SCA under it: the PSU authenticates again, and calls under it are served again.
      const renewal = await sca.authorise(scaRedirectFrom(late), psu);
      const renewed = await session.read();
      check.that(
        'SCA-08',
        renewal.outcome === 'success' && isSuccess(renewed),
        {
          expected: 'after a new SCA under the expired TPP-Session-ID, the call under it served again (2xx)',
          actual: `${renewal.url}; then HTTP ${renewed.status}`,
          response: renewed,
        },
        { after: expired },
      );
    },
  ),
);

test(
  ...scenario(
    'SES-05.a',
    'a completed SCA under a new TPP-Session-ID invalidates the old session: a call under the old one needs SCA again, one under the new one is served',
    { checks: ['SES-05', 'PSU-10'], ownPsu: true },
    async ({ newTpp, sca, paths, check, ownPsu }) => {
      const psu = await ownPsu();
      const old = await openSession({ newTpp, sca, paths }, psu);
      const replacing = await openSession({ newTpp, sca, paths }, psu);
      const underOld = await old.read();
      const underNew = await replacing.read();
      await judgeableAsSession({ newTpp, paths }, replacing.psuId, underNew);
      const shown = `old session: HTTP ${underOld.status}; new session: HTTP ${underNew.status}`;
      if (isSuccess(underOld)) {
        // Served from the consent (an invalidated session's reads, or a TPP-Session-ID that governs SCA prompts only): the old session
        // shows in whether a new SCA under it prompts the PSU again.
        const probe = await promptedAgain({ sca, paths }, old, psu);
        check.that('SES-05', probe.prompted, {
          expected:
            'a read under the old TPP-Session-ID answered with an scaRedirect, or (reads served from the consent) a new SCA under it that prompts the PSU again',
          actual: `${shown}; ${probe.shown}`,
        });
        check.that('PSU-10', probe.prompted && isSuccess(underNew), {
          expected: 'the newer TPP-Session-ID carries the session, the old one no longer spares an SCA',
          actual: `${shown}; ${probe.shown}`,
        });
        return;
      }
      check.status('SES-05', underOld);
      check.that('SES-05', asksForSca(underOld), {
        expected: 'a call under the old TPP-Session-ID answered with an scaRedirect (a new SCA)',
        response: underOld,
      });
      check.that('PSU-10', asksForSca(underOld) && isSuccess(underNew), {
        expected: 'the newer TPP-Session-ID carries the session, the old one no longer',
        actual: shown,
      });
    },
  ),
);

test(
  ...scenario(
    'SES-06.a',
    'an SCA started under a new TPP-Session-ID and aborted by the PSU leaves the old session valid',
    { checks: ['SES-06'], ownPsu: true, needs: ['sca-abort'] },
    async ({ newTpp, sca, paths, check, ownPsu }) => {
      const psu = await ownPsu();
      const old = await openSession({ newTpp, sca, paths }, psu);
      // What the aborted SCA leaves is seen only on a session that served before it (a session kept at all is SES-02's).
      const before = await old.read();
      await judgeableAsSession({ newTpp, paths }, old.psuId, before);
      if (!isSuccess(before))
        throw new PrerequisiteUnmet(`the session of the SCA served no call even before the aborted SCA (HTTP ${before.status})`);
      const aborted = await sca.authorise(scaRedirectFrom(await newTpp().get(paths('accounts'))), psu, { variant: 'cancel-at-consent' });
      if (aborted.outcome === 'success')
        return check.notEvaluatedRest(`not evaluated: the SCA meant to be aborted succeeded (${aborted.url})`);
      const underOld = await old.read();
      check.that('SES-06', isSuccess(underOld), {
        expected: 'a call under the old TPP-Session-ID still served (2xx) after an aborted SCA under a new one',
        response: underOld,
      });
    },
  ),
);

/**
 * The error parameters of a failure redirect (Events, "After failed SCA"), each judged on its own; the code against `codeRequirement`'s
 * list.
 */
function judgeFailureRedirect(
  check: ScenarioFixtures['check'],
  redirect: Redirect,
  options: { after?: CheckResult; codeRequirement: string; system?: boolean },
): void {
  const { after, codeRequirement } = options;
  const { params } = redirect;
  const shown = { actual: redirect.url };
  const status = params.status ?? '';
  const judged = after === undefined ? {} : { after };
  check.that('EVT-09', /^[1-5]\d\d$/.test(status), { expected: 'status, the HTTP status code as a number', ...shown }, judged);
  const hasCode = check.that('EVT-10', (params.code ?? '') !== '', { expected: 'code, the error code', ...shown }, judged);
  check.that('EVT-11', (params.message ?? '') !== '', { expected: 'message, the error text', ...shown }, judged);
  if (options.system)
    check.that(
      'EVT-08',
      Number(status) < 500 || (params.system ?? '') !== '',
      { expected: 'system, the internal system, with a server error status', ...shown },
      judged,
    );
  check.redirectCode(codeRequirement, redirect, { after: hasCode });
}

test(
  ...scenario(
    'SES-03.a',
    'a PSU who cancels SCA is redirected with status, code and message, and gets no session',
    { checks: ['SES-03', 'EVT-08', 'EVT-09', 'EVT-10', 'EVT-11', 'ERR-20'], ownPsu: true, needs: ['sca-abort'] },
    async ({ newTpp, sca, paths, check, ownPsu }) => {
      const psu = await ownPsu();
      const redirect = await sca.authorise(scaRedirectFrom(await newTpp().get(paths('accounts'))), psu, { variant: 'cancel-at-consent' });
      const { params } = redirect;
      const failed = check.that('SES-03', params['psu-id'] === undefined && ['status', 'code', 'message'].some((name) => name in params), {
        expected: 'a redirect with the error parameters and without psu-id (no session)',
        actual: redirect.url,
      });
      judgeFailureRedirect(check, redirect, { after: failed, codeRequirement: 'ERR-20', system: true });
    },
  ),
);

/**
 * A national identity number no sandbox customer has (the reference bank's customers are made with valid check digits; this one has none).
 */
const UNKNOWN_NATIONAL_ID = '01010100000';
/** Logins with the unknown number the PSU tries, where the bank asks again after a failed one, before it is not waited for any longer. */
const LOGIN_TRIES = 5;

test(
  ...scenario(
    'ERR-20.a',
    'a login with an unknown national identity number ends in the failure redirect, with status, code and message (where the bank lets the PSU try again, once it stops letting it)',
    { checks: ['ERR-20', 'EVT-09', 'EVT-10', 'EVT-11'], needs: ['sca-abort'] },
    async ({ tpp, sca, paths, check }) => {
      let at = scaRedirectFrom(await tpp.get(paths('accounts')));
      for (let tries = 1; ; tries++) {
        const attempt = await sca.attempt(at, { nationalId: UNKNOWN_NATIONAL_ID });
        if (attempt.outcome !== 'refused') {
          if (attempt.params['psu-id'] !== undefined)
            return check.notEvaluatedRest(`not evaluated: the SCA of an unknown PSU succeeded (${attempt.url})`);
          return judgeFailureRedirect(check, attempt, { codeRequirement: 'ERR-20' });
        }
        // The bank keeps the PSU on its pages after the failed login (how many tries it allows is its own): the PSU tries again there.
        if (tries === LOGIN_TRIES)
          return check.notEvaluatedRest(
            `not evaluated: after ${LOGIN_TRIES} logins with an unknown number the bank still keeps the PSU on its pages, with no failure redirect (${attempt.reason})`,
          );
        at = attempt.url;
      }
    },
  ),
);

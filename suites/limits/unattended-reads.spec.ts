/**
 * Limits > Calls without PSU-IP-Address: a TPP acting without the PSU reads balances and transactions of an
 * account at most 4 times each in 24 hours, and transactions no older than 90 days; with PSU-IP-Address
 * (the PSU present) none of this applies. Each scenario burns the quota of accounts made for it alone, and
 * never on production (`writes`).
 */
import { randomUUID } from 'node:crypto';
import {
  accountsOf,
  consentServesReads,
  isSuccess,
  jsonBodyOf,
  PrerequisiteUnmet,
  psuIdFrom,
  scaRedirectFrom,
  scenario,
  type ScenarioFixtures,
  test,
  type TppClient,
  type TppResponse,
} from '../../lib/fixtures/index.js';
import { busyAccount } from '../ais/busy-account.js';
import { notIsoDates } from '../ais/iso-dates.js';

const ALLOWED_PER_DAY = 4;
const WITHOUT_PSU = { omitHeaders: ['PSU-IP-Address'] };
const DAY_MS = 86_400_000;
/** A transaction read as Berlin Group asks it (bookingStatus is mandatory there): the quota counts it as any other. */
const BOOKED = '?bookingStatus=booked';

/**
 * Reads `path` once more than the daily quota without the PSU; the last answer and a summary of all.
 * `served`: some read was served before the refusals, so these are the quota's (not a refusal of every such read, HDR-14).
 */
async function exhaust(
  tpp: TppClient,
  path: string,
  psuId: string,
): Promise<{ last: TppResponse; withinQuota: boolean; served: boolean; summary: string }> {
  const answers: TppResponse[] = [];
  // The read past the quota leaves a TPP rule on purpose (TPP-43, TPP-44): that is what is tried.
  const pastQuota = { deliberate: 'a read past the unattended quota' };
  for (let i = 0; i <= ALLOWED_PER_DAY; i++)
    answers.push(await tpp.get(path, { ...WITHOUT_PSU, headers: { 'PSU-ID': psuId }, ...(i === ALLOWED_PER_DAY ? pastQuota : {}) }));
  const firstRefusal = answers.findIndex((r) => !isSuccess(r));
  // At most 4 served, and once refused, refused for the rest of the day (whatever earlier runs used).
  const withinQuota = firstRefusal !== -1 && answers.slice(firstRefusal).every((r) => !isSuccess(r));
  return {
    last: answers[answers.length - 1] as TppResponse,
    withinQuota,
    served: firstRefusal !== 0,
    summary: answers.map((r) => r.status).join(', '),
  };
}

/** The psu-id of a PSU made for the scenario, after its SCA, and the first account it consented to. */
async function accountOfOwnPsu({
  tpp,
  paths,
  sca,
  ownPsu,
}: Pick<ScenarioFixtures, 'tpp' | 'paths' | 'sca' | 'ownPsu'>): Promise<{ psuId: string; accountId: string }> {
  const psu = await ownPsu();
  const redirect = await sca.authorise(scaRedirectFrom(await tpp.get(paths('accounts'))), psu);
  const psuId = psuIdFrom(redirect);
  const listing = await tpp.get(paths('accounts'), { headers: { 'PSU-ID': psuId } });
  consentServesReads(listing);
  return { psuId, accountId: accountsOf(listing)[0]?.resourceId ?? '' };
}

test(
  ...scenario(
    'LIM-03.a',
    'without PSU-IP-Address the 5th balance read and the 5th transaction read of an account in 24 hours are refused; with it they are served',
    { checks: ['LIM-03', 'LIM-04', 'LIM-18', 'ERR-27'], ownPsu: true, writes: 'uses up the unattended read quota of an account' },
    async ({ tpp, paths, sca, ownPsu, check }) => {
      const { psuId, accountId } = await accountOfOwnPsu({ tpp, paths, sca, ownPsu });

      for (const [id, path] of [
        ['LIM-03', paths('balances', { accountId })],
        ['LIM-04', `${paths('transactions', { accountId })}${BOOKED}`],
      ] as const) {
        const { last, withinQuota, served, summary } = await exhaust(tpp, path, psuId);
        const present = await tpp.get(path, { headers: { 'PSU-ID': psuId } });
        // Refused to every read, with the PSU or without, the resource shows no quota (serving it is its endpoint's rule).
        if (!served && !isSuccess(present)) {
          check.notEvaluated(
            [id, 'ERR-27', 'LIM-18'],
            `not evaluated: ${path} served no read, with PSU-IP-Address or without (HTTP ${summary}; ${present.status})`,
          );
          continue;
        }
        const refused = check.status(id, last);
        check.that(
          id,
          withinQuota,
          { expected: `at most ${ALLOWED_PER_DAY} reads served, the rest refused`, actual: `HTTP ${summary}` },
          { after: refused },
        );
        // How the refusal says so (status and code) is a rule of its own, a SHOULD; the account is new, so a quota refusal follows served
        // reads.
        if (served) {
          const answered = check.status('ERR-27', last, { after: refused });
          check.code('ERR-27', last, { after: answered });
        } else
          check.notEvaluated(
            ['ERR-27'],
            `not evaluated: no read without PSU-IP-Address was served (HTTP ${summary}), so the refusal is not the quota's`,
          );
        check.status('LIM-18', present, { after: refused });
      }
    },
  ),
);

test(
  ...scenario(
    'LIM-05.a',
    'without PSU-IP-Address no transaction older than 90 days is returned, even when dateFrom asks for more',
    { checks: ['LIM-05'], needs: ['sandbox-mock-data'], ownPsu: true, writes: 'creates a customer and an account with 150 transactions' },
    async ({ tpp, paths, sca, ownPsu, sandbox, check }) => {
      const { accountId, psuId } = await busyAccount({ tpp, paths, sca, ownPsu, sandbox }, 150, 120);
      const oldest = new Date(Date.now() - 91 * DAY_MS).toISOString().slice(0, 10); // a day's grace for time zones
      const bookedOf = (response: TppResponse) =>
        (jsonBodyOf(response) as { transactions?: { booked?: { bookingDate?: string }[] } } | undefined)?.transactions?.booked ?? [];
      const older = (response: TppResponse) => bookedOf(response).filter((t) => (t.bookingDate ?? '9999') < oldest);
      const listing = paths('transactions', { accountId });
      const from = new Date(Date.now() - 120 * DAY_MS).toISOString().slice(0, 10);
      // The older transactions, asked for by dateFrom: a listing without it may cover a recent window only.
      const withPsu = await tpp.get(`${listing}?bookingStatus=booked&dateFrom=${from}`, { headers: { 'PSU-ID': psuId } });
      const unreadable = notIsoDates(bookedOf(withPsu).map((t) => t.bookingDate));
      if (unreadable.length > 0)
        throw new PrerequisiteUnmet(
          `the transactions are dated otherwise than YYYY-MM-DD (${unreadable[0] ?? ''}): their age cannot be read`,
        );
      // Without older transactions to leave out, the rule cannot be seen at work.
      if (older(withPsu).length === 0)
        throw new PrerequisiteUnmet(`the mock account shows no transaction booked before ${oldest} even with the PSU present`);
      for (const path of [listing, `${listing}?bookingStatus=booked&dateFrom=${from}`]) {
        const response = await tpp.get(path, { ...WITHOUT_PSU, headers: { 'PSU-ID': psuId } });
        const answered = check.status('LIM-05', response);
        check.that(
          'LIM-05',
          older(response).length === 0,
          { expected: `no transaction booked before ${oldest}`, actual: `${older(response).length} older ones`, response },
          { after: answered },
        );
      }
    },
  ),
);

test(
  ...scenario(
    'LIM-04.b',
    'the quota of transaction reads without PSU-IP-Address is per 24 hours: a day after it was used up, such reads are served again',
    {
      checks: ['LIM-04'],
      ownPsu: true,
      needs: ['clock-control'],
      writes: 'uses up the unattended read quota of an account',
      globalState: 'moves the target clock a day on',
    },
    async ({ tpp, newTpp, paths, sca, ownPsu, check, sandboxClock }) => {
      const { psuId, accountId } = await accountOfOwnPsu({ tpp, paths, sca, ownPsu });
      const path = `${paths('transactions', { accountId })}${BOOKED}`;
      const { last, served, summary } = await exhaust(tpp, path, psuId);
      const refused = check.status('LIM-04', last);
      if (!served)
        return check.notEvaluated(
          ['LIM-04'],
          `not evaluated: no read without PSU-IP-Address was served (HTTP ${summary}): no quota was used up to see renewed`,
        );
      // A minute past the day: the window slides on the bank's clock.
      const shift = DAY_MS / 1000 + 60;
      await sandboxClock.shift(shift);
      const dayLater = newTpp({ sessionId: randomUUID() });
      const again = await dayLater.get(path, { ...WITHOUT_PSU, headers: { 'PSU-ID': psuId } });
      check.that(
        'LIM-04',
        isSuccess(again),
        { expected: 'a transaction read without PSU-IP-Address served again a day after the quota was used up (2xx)', response: again },
        { after: refused },
      );
    },
  ),
);

// The quota on reads the TPP makes without the PSU (Limits): at most 4 balance reads and 4 transaction
// reads per account in 24 hours when the request carries no PSU-IP-Address. Shared by the account and
// transaction routes; the counting itself is state (state/unattended-reads.ts).
import { BankError } from '../bank-errors.js';
import { psuPresent, tppOf, type BankContext } from '../http/bank-context.js';
import { UNATTENDED_READS_PER_DAY, type UnattendedRead } from '../state/unattended-reads.js';
import { defineFault, type Fault } from '../switches.js';

const unattendedBalancesUnlimited = defineFault('unattended-balance-reads-unlimited', {
  description: 'balance reads without PSU-IP-Address are not limited to 4 per account in 24 hours',
  breaks: ['LIM-03'],
});
const unattendedTransactionsUnlimited = defineFault('unattended-transaction-reads-unlimited', {
  description: 'transaction reads without PSU-IP-Address are not limited to 4 per account in 24 hours',
  breaks: ['LIM-04'],
});
const psuPresentReadsCounted = defineFault('psu-present-reads-counted', {
  description: 'reads with PSU-IP-Address count against the unattended quota too, and are refused once it is used up',
  breaks: ['LIM-18'],
});
const unattendedLimitAsForbidden = defineFault('unattended-limit-as-forbidden', {
  description: 'a read past the unattended quota is refused with 403 FORBIDDEN instead of 429 ACCESS_EXCEEDED',
  breaks: ['ERR-27'],
});
const UNLIMITED_BY: Record<UnattendedRead, Fault> = {
  balances: unattendedBalancesUnlimited,
  transactions: unattendedTransactionsUnlimited,
};
const quotaNeverResets = defineFault('unattended-quota-never-resets', {
  description: 'reads without PSU-IP-Address refused once the quota is used up stay refused a day later: the 24-hour window never moves on',
  breaks: ['LIM-04'],
});

/** A read without the PSU counts against the account's daily quota; past it the answer is 429 ACCESS_EXCEEDED. */
export function countUnattendedRead(ctx: BankContext, accountId: string, kind: UnattendedRead): void {
  const { world } = ctx;
  if ((psuPresent(ctx) && !ctx.switches.breaks(psuPresentReadsCounted)) || ctx.switches.breaks(UNLIMITED_BY[kind])) return;
  if (!world.unattendedReads.take(tppOf(ctx).id, accountId, kind, world.clock.now(), () => ctx.switches.breaks(quotaNeverResets))) {
    if (ctx.switches.breaks(unattendedLimitAsForbidden)) throw new BankError(403, 'FORBIDDEN', `The ${kind} quota is used up`);
    throw new BankError(
      429,
      'ACCESS_EXCEEDED',
      `At most ${UNATTENDED_READS_PER_DAY} ${kind} reads per account in 24 hours without PSU-IP-Address`,
    );
  }
}

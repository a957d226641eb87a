/**
 * Limits: reads without PSU-IP-Address (the TPP acting without the PSU) stay within 4 per account in any
 * 24 hours, balances and transactions counted apart. Counted by the bank's clock; a call counts against a
 * later one only when the two are certainly less than 24 hours apart, so clock uncertainty never fails a TPP.
 */
import type { PathName } from '../../spec/paths.js';
import { judged, unjudged, type Learner, type Rule, type RuleContext } from '../rule.js';

const WINDOW_MS = 24 * 3600 * 1000;
const QUOTA = 4;

/** Which quota a read counts against: the rule, and the account's kind (card accounts have their own paths). */
const QUOTAS: Partial<Record<PathName, { rule: 'TPP-43' | 'TPP-44'; account: 'account' | 'card-account' }>> = {
  balances: { rule: 'TPP-43', account: 'account' },
  cardAccountBalances: { rule: 'TPP-43', account: 'card-account' },
  transactions: { rule: 'TPP-44', account: 'account' },
  transactionDetails: { rule: 'TPP-44', account: 'account' },
  cardAccountTransactions: { rule: 'TPP-44', account: 'card-account' },
};

/** The quota an unattended read of this request counts against, as a key per TPP, or undefined. */
function quotaKey(c: RuleContext, rule: string): string | undefined {
  if (c.call.method !== 'GET' || c.call.path === undefined || c.header('psu-ip-address') !== undefined) return undefined;
  const quota = QUOTAS[c.call.path.name];
  if (quota?.rule !== rule) return undefined;
  return `${rule}\n${quota.account}\n${c.call.path.parameters.accountId ?? ''}`;
}

function quotaRule(rule: 'TPP-43' | 'TPP-44', what: string): Rule & Learner {
  return {
    id: rule,
    judge: (c) => {
      const key = quotaKey(c, rule);
      if (key === undefined) return undefined;
      if (c.clock === undefined) return unjudged("the bank's clock is not known for this exchange (no Date in its answer)");
      const latest = c.clock.latest;
      const within = (c.tpp.unattendedReads.get(key) ?? []).filter((earlier) => latest - earlier.earliest < WINDOW_MS).length;
      return judged(within < QUOTA, `at most ${QUOTA} ${what} reads without PSU-IP-Address per account in 24 hours`, () =>
        `read ${within + 1} in 24 hours of account ${c.call.path?.parameters.accountId ?? ''}`,
      );
    },
    learn: (c) => {
      const key = quotaKey(c, rule);
      if (key === undefined || c.clock === undefined) return;
      const { earliest } = c.clock;
      const kept = (c.tpp.unattendedReads.get(key) ?? []).filter((earlier) => earliest - earlier.latest < WINDOW_MS);
      c.tpp.unattendedReads.set(key, [...kept, c.clock]);
    },
  };
}

export const LIMIT_RULES: readonly Rule[] = [quotaRule('TPP-43', 'balance'), quotaRule('TPP-44', 'transaction')];

/**
 * Versioning > path prefix: the interface is served under /v1. Observed over the network for the operations
 * the suite reads: their paths start with /v1, there they give the API's answer, and the links the bank writes
 * to its account resources lead under /v1 too. What the same path without /v1 answers is not judged: a
 * refusal, an alias or a redirect all keep the prefix where it is.
 */
import { accountsOf, linkUrl, scenario, servedOrScaAsked, test } from '../../lib/fixtures/index.js';
import type { PathName } from '../../lib/spec/paths.js';
import { fixReader } from './consented-reads.js';

const PREFIX = '/v1/';
/** Operations any PSU with a consent can read: their /v1 answer is the API's. */
const READ_OPERATIONS: readonly PathName[] = ['accounts', 'cardAccounts'];

test(
  ...scenario(
    'VER-01.a',
    'the paths of the interface start with /v1, there the API answers, and the links of its accounts lead there',
    { checks: ['VER-01'] },
    async ({ newTpp, consentedPsu, paths, tpp, check }) => {
      const { read } = await fixReader({ newTpp, consentedPsu, paths });
      const apiRoot = `${new URL(linkUrl(tpp.transport.baseUrl, PREFIX)).pathname}`;
      for (const name of READ_OPERATIONS) {
        const path = paths(name);
        const prefixed = check.that('VER-01', path.startsWith(PREFIX), { expected: `the path of ${name} under ${PREFIX}`, actual: path });
        if (!prefixed.passed) continue;
        const response = await read(path);
        check.that('VER-01', servedOrScaAsked(response), {
          expected: `the API's answer under ${path}: served (2xx), or asked for SCA`,
          response,
        });
        if (name !== 'accounts') continue;
        // The links an account carries to its balances and transactions (absolute, or relative as the Berlin Group writes them).
        const hrefs = accountsOf<{ _links?: Record<string, { href?: unknown }> }>(response).flatMap((account) =>
          Object.values(account._links ?? {}).flatMap((link) => (typeof link.href === 'string' ? [link.href] : [])),
        );
        const outside = hrefs.filter((href) => !new URL(linkUrl(tpp.transport.baseUrl, href)).pathname.startsWith(apiRoot));
        check.that('VER-01', outside.length === 0, {
          expected: `the links of the accounts under ${apiRoot}`,
          actual: outside.length === 0 ? `${hrefs.length} links, all there` : `outside: ${outside.slice(0, 3).join(', ')}`,
          response,
        });
      }
    },
  ),
);

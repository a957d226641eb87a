/**
 * Versioning > path prefix: every path of the interface starts with /v1. Observed over the network for the
 * operations the suite reads: their paths start with /v1, and the same path without it is not the API.
 */
import { scenario, test } from '../../lib/fixtures/index.js';
import type { PathName } from '../../lib/spec/paths.js';
import { fixReader } from './consented-reads.js';

const PREFIX = '/v1/';
/** Operations any PSU with a consent can read: their /v1 answer is the API's. */
const READ_OPERATIONS: readonly PathName[] = ['accounts', 'cardAccounts', 'agreements'];

test(...scenario(
  'VER-01.a',
  'the paths of the interface start with /v1, and the same paths without /v1 are not served as the API',
  { checks: ['VER-01'] },
  async ({ newTpp, consentedPsu, paths, check }) => {
    const { read } = await fixReader({ newTpp, consentedPsu, paths });
    for (const name of READ_OPERATIONS) {
      const path = paths(name);
      const prefixed = check.that('VER-01', path.startsWith(PREFIX), { expected: `the path of ${name} under ${PREFIX}`, actual: path });
      if (!prefixed.passed) continue;
      const unversioned = path.slice(PREFIX.length - 1);
      // With the PSU's consent: what the /v1 path would answer with data must not come back here.
      check.status('VER-01', await read(unversioned));
    }
  },
));

/**
 * Versioning > path prefix: the interface is served under /v1. Observed over the network for the operations
 * the suite reads: their paths start with /v1, and there they give the API's answer. What the same path
 * without /v1 answers is not judged: a refusal, an alias or a redirect all keep the prefix where it is.
 */
import { scenario, servedOrScaAsked } from '../../lib/fixtures/index.js';
import type { PathName } from '../../lib/spec/paths.js';
import { fixReader } from './consented-reads.js';

const PREFIX = '/v1/';
/** Operations any PSU with a consent can read: their /v1 answer is the API's. */
const READ_OPERATIONS: readonly PathName[] = ['accounts', 'cardAccounts'];

scenario(
  'VER-01.a',
  'the paths of the interface start with /v1, and there the API answers',
  { checks: ['VER-01'] },
  async ({ newTpp, consentedPsu, paths, check }) => {
    const { read } = await fixReader({ newTpp, consentedPsu, paths });
    for (const name of READ_OPERATIONS) {
      const path = paths(name);
      const prefixed = check.that('VER-01', path.startsWith(PREFIX), { expected: `the path of ${name} under ${PREFIX}`, actual: path });
      if (!prefixed.passed) continue;
      const response = await read(path);
      check.that('VER-01', servedOrScaAsked(response), { expected: `the API's answer under ${path}: served (2xx), or asked for SCA`, response });
    }
  },
);

/**
 * Errors: a request the interface cannot serve (a path it does not have, a method a path does not have, a
 * body over its size limit) is the TPP's error: a 4xx, never a 5xx. Such a request names no operation of the
 * interface, or is refused before it reaches one: a gateway in front of it may answer in its own form, so the
 * error body and the X-Request-ID echo are not demanded of the answer (lib/judge/invariants.ts).
 */
import { isResetBeforeAnswer, scenario, test } from '../../lib/fixtures/index.js';

test(
  ...scenario(
    'ERR-14.a',
    'a path the interface does not have answers 404 with NOT_FOUND or RESOURCE_UNKNOWN',
    { checks: ['ERR-14', 'ERR-44'] },
    async ({ tpp, check }) => {
      const response = await tpp.get('/v1/no-such-resource', { malformed: 'a path the interface does not have' });
      const notFound = check.status('ERR-14', response);
      check.code('ERR-14', response, { after: notFound });
      check.status('ERR-44', response);
    },
  ),
);

test(
  ...scenario(
    'ERR-44.b',
    'a method a path does not have (DELETE /v1/accounts) is refused with a 4xx, never a 5xx',
    { checks: ['ERR-44'] },
    async ({ tpp, paths, check }) => {
      check.status('ERR-44', await tpp.delete(paths('accounts'), { malformed: 'a method the path does not have' }));
    },
  ),
);

test(
  ...scenario(
    'ERR-44.c',
    'a body of 2 MiB is refused with a 4xx, never a 5xx',
    { checks: ['ERR-44'], needs: ['sandbox-mock-data'], writes: 'posts to a sandbox mock-data operation' },
    async ({ tpp, sandbox, check }) => {
      const huge = JSON.stringify({ customerNumber: '12345678901', name: 'x'.repeat(2 * 1024 * 1024), type: 'private' });
      const answer = await tpp
        .request({
          ...sandbox.endpoint('createCustomer'),
          rawBody: huge,
          headers: { 'Content-Type': 'application/json' },
          malformed: 'a 2 MiB body',
        })
        .catch((error: unknown) => {
          if (isResetBeforeAnswer(error)) return undefined;
          throw error;
        });
      // A bank may refuse the body before it has all arrived and close the connection (RFC 9110, 15.5.14, 413 Content
      // Too Large); the TPP's next write then fails, often before its answer is read.
      if (answer === undefined) {
        check.notEvaluated(
          ['ERR-44'],
          'not evaluated: the bank closed the connection while the 2 MiB body was being sent (RFC 9110 section 15.5.14 lets it), and no answer could be read',
        );
        return;
      }
      check.status('ERR-44', answer);
    },
  ),
);

// The bank's test clock as a sandbox operation: read it, freeze it at an instant, shift it by an offset, or
// give it back to system time. Every notion of "now" in the caller's world comes from it (state/test-clock.ts),
// so a test moves time instead of waiting for it.
import fp from 'fastify-plugin';
import { BankError } from '../bank-errors.js';
import { SANDBOX_OPERATION } from '../http/request-context.js';

/** A century either way is more than any test needs and keeps dates representable. */
const MAX_OFFSET_SECONDS = 100 * 365 * 86_400;

interface ClockSetting {
  Body: { frozenAt?: string; offsetSeconds?: number };
}

export const sandboxClockPlugin = fp(
  (api, _options, done) => {
    api.get('/sandbox/clock', { config: SANDBOX_OPERATION }, (request) => request.world.clock.describe());

    api.put<ClockSetting>(
      '/sandbox/clock',
      {
        config: SANDBOX_OPERATION,
        schema: {
          body: {
            type: 'object',
            additionalProperties: false,
            minProperties: 1,
            maxProperties: 1,
            properties: {
              frozenAt: { type: 'string', minLength: 1 },
              offsetSeconds: { type: 'number', minimum: -MAX_OFFSET_SECONDS, maximum: MAX_OFFSET_SECONDS },
            },
          },
        },
      },
      (request) => {
        const { frozenAt, offsetSeconds } = request.body;
        if (frozenAt !== undefined) {
          // A date-time with an explicit offset, so the instant is unambiguous.
          const at = new Date(frozenAt);
          if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(frozenAt) || Number.isNaN(at.getTime())) {
            throw new BankError(
              400,
              'FORMAT_ERROR',
              'frozenAt must be an ISO 8601 date-time with a time zone, e.g. 2025-01-31T12:00:00+00:00',
            );
          }
          request.world.clock.freeze(at);
        } else if (offsetSeconds !== undefined) {
          request.world.clock.shift(offsetSeconds);
        }
        return request.world.clock.describe();
      },
    );

    api.delete('/sandbox/clock', { config: SANDBOX_OPERATION }, (request) => {
      request.world.clock.reset();
      return request.world.clock.describe();
    });
    done();
  },
  { name: 'sandbox-clock', encapsulate: true, decorators: { request: ['world'] }, dependencies: ['signature', 'json-body'] },
);

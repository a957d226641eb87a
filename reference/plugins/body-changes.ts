// The one place the faults that change the shape of an answer act (switches.ts, BodyChange): a route answers
// with the bank's own body, and this hook hands on the body as each such fault of the route changes it. A fault
// is asked (and so counted by a census) only of an answer its `when` picks, as if its route asked it there.
import fp from 'fastify-plugin';
import { applyBodyChanges, type JsonAnswer } from '../switches.js';

export const bodyChangesPlugin = fp(
  (api, _options, done) => {
    api.addHook('preSerialization', (request, reply, payload, next) => {
      if (typeof payload !== 'object' || payload === null) return next(null, payload);
      next(
        null,
        applyBodyChanges(request.switches, `${request.method} ${request.routeOptions.url ?? ''}`, payload as JsonAnswer, reply.statusCode),
      );
    });
    done();
  },
  { name: 'body-changes', decorators: { request: ['switches'] }, dependencies: ['signature'] },
);

// "Requests and responses use UTF-8", "All bodies are JSON": what a /v1 request
// must be before any domain rule looks at it. Header values are bytes on the wire
// (Node reads them as latin1); a value that is not valid UTF-8 is the TPP's error.
// An Accept that admits no JSON cannot be served (406), since JSON is all there is.
import { gzipSync } from 'node:zlib';
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { computeDigest, formatHttpDate } from '../../lib/httpsig/index.js';
import { BankError } from '../bank-errors.js';
import { defineFault, defineVariant, type Fault } from '../switches.js';
import { header } from '../http/request-context.js';

const headerUtf8Crash = defineFault('header-utf8-server-error', {
  description:
    'a header value that is not valid UTF-8 (e.g. a TPP-Session-ID with byte 0xFF) gives 500 instead of a refusal or its being taken',
  breaks: ['FMT-12', 'ERR-44'],
});

const latin1CharsetDeclared = defineFault('latin1-charset-declared', {
  description: 'responses declare charset=iso-8859-1 although their bodies are UTF-8',
  breaks: ['FMT-03'],
});

// Serialisation faults, applied to the answer as sent so that one TPP sees them and no other; each asked
// only of an answer it would change.
const SERIALISATION_FAULTS: readonly [Fault, RegExp, string][] = [
  [
    // Every amount, so the fee of a payment too ("transactionFees … has amount (a string)", PAY-38), with
    // x-accept-fix: amount-as-string or without it ("amounts are strings, with or without the header", VER-12).
    defineFault('amounts-as-numbers', {
      description: 'amounts in answers are JSON numbers instead of strings',
      breaks: ['FMT-09', 'PAY-38', 'VER-12'],
    }),
    /"amount":"(-?\d+(?:\.\d+)?)"/g,
    '"amount":$1',
  ],
  [
    defineFault('dates-day-first', { description: 'dates in answers are written DD.MM.YYYY instead of YYYY-MM-DD', breaks: ['FMT-05'] }),
    /"(\d{4})-(\d{2})-(\d{2})"/g,
    '"$3.$2.$1"',
  ],
  [
    defineFault('date-times-without-offset', { description: 'date-times in answers carry no offset', breaks: ['FMT-06'] }),
    /"(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})"/g,
    '"$1"',
  ],
];
const responseDigestWrong = defineFault('response-digest-wrong', {
  description: 'the Digest of an answer does not match its body',
  breaks: ['SIG-29'],
});
const unsignedResponses = defineVariant('unsigned-responses', {
  description: 'answers carry no Digest: response bodies are not signed',
  allowedBy: 'Authentication 8: "The service may sign response bodies; the TPP should verify them."',
  source: 'Specification, Authentication 8',
});
const gzipWhenAsked = defineVariant('gzip-when-asked', {
  description: 'an answer to a request whose Accept-Encoding admits gzip is compressed, with Content-Encoding: gzip',
  allowedBy:
    'Header table: "Accept, Accept-Charset, Accept-Encoding, Accept-Language | content negotiation; server answers with Content-Type, Content-Encoding or Content-Language"',
  source: 'Specification, Endpoints > POST /v1/payments/sepa-credit-transfers > Headers',
});
const asciiHeadersOnly = defineVariant('ascii-header-values-only', {
  description:
    'a header value holding a character outside ASCII, valid UTF-8 or not, is refused with 400 FORMAT_ERROR: the gateway in front of the interface passes ASCII header values only',
  allowedBy:
    'Data format: "If a downstream system rejects a character (for example an emoji), the service answers 400." A header is text like any other; the one header the specification lets carry other characters, Signature, is MIME-encoded into ASCII (Authentication 7)',
  source: 'Specification, What the service does > Data format; Authentication 7',
});
const dateHeaderIso = defineFault('date-header-iso', {
  description: 'the Date response header is an ISO 8601 timestamp instead of an IMF-fixdate',
  breaks: ['FMT-07'],
});

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The first header whose value is not valid UTF-8, if any. ASCII values, the usual case, cost one regex test. */
function headerNotUtf8(request: FastifyRequest): string | undefined {
  for (const [name, value] of Object.entries(request.headers)) {
    for (const text of Array.isArray(value) ? value : [value ?? '']) {
      if (!/[\x80-\xff]/.test(text)) continue;
      try {
        utf8.decode(Buffer.from(text, 'latin1'));
      } catch {
        return name;
      }
    }
  }
  return undefined;
}

/** The first header whose value holds a byte outside ASCII, if any. */
function headerNotAscii(request: FastifyRequest): string | undefined {
  return Object.entries(request.headers).find(([, value]) =>
    (Array.isArray(value) ? value : [value ?? '']).some((text) => /[\x80-\xff]/.test(text)),
  )?.[0];
}

/** Whether an Accept header admits application/json (absent, any wildcard or a JSON type with q > 0). */
export function acceptsJson(accept: string | undefined): boolean {
  if (accept === undefined || accept.trim() === '') return true;
  return accept.split(',').some((range) => {
    const [type = '', ...parameters] = range.split(';').map((part) => part.trim().toLowerCase());
    const q = parameters.find((p) => p.startsWith('q='));
    if (q !== undefined && Number(q.slice(2)) === 0) return false;
    return type === '*/*' || type === 'application/*' || /^application\/([a-z0-9.+-]+\+)?json$/.test(type);
  });
}

export const formatPlugin = fp(
  (api, _options, done) => {
    api.addHook('onRequest', (request, _reply, next) => {
      const badHeader = headerNotUtf8(request);
      if (badHeader !== undefined) {
        next(
          request.switches.breaks(headerUtf8Crash)
            ? new Error(`cannot decode header ${badHeader}`)
            : new BankError(400, 'FORMAT_ERROR', `Header ${badHeader} is not valid UTF-8: requests use UTF-8`),
        );
        return;
      }
      const nonAscii = headerNotAscii(request);
      if (nonAscii !== undefined && request.switches.reads(asciiHeadersOnly)) {
        next(new BankError(400, 'FORMAT_ERROR', `Header ${nonAscii} holds a character the gateway does not take: header values are ASCII`));
        return;
      }
      if (!acceptsJson(header(request, 'accept'))) {
        next(new BankError(406, 'FORMAT_ERROR', 'Accept admits no JSON: every answer of this interface is application/json'));
        return;
      }
      next();
    });
    api.addHook('onSend', (request, reply, payload, next) => {
      const { switches } = request;
      const type = reply.getHeader('content-type');
      if (typeof type === 'string' && /charset=/i.test(type) && switches.breaks(latin1CharsetDeclared))
        void reply.header('content-type', type.replace(/charset=[^;]+/i, 'charset=iso-8859-1'));
      // The Date of an answer is the bank's clock, the one it checks the request's Date against (moved in the sandbox).
      void reply.header('date', switches.breaks(dateHeaderIso) ? new Date().toISOString() : formatHttpDate(request.world.clock.now()));
      const sent =
        typeof payload === 'string'
          ? SERIALISATION_FAULTS.reduce(
              (text, [fault, pattern, replacement]) =>
                text.search(pattern) !== -1 && switches.breaks(fault) ? text.replace(pattern, replacement) : text,
              payload,
            )
          : payload;
      // Authentication 8: the service may sign response bodies; this bank gives each JSON answer its Digest.
      if (typeof sent === 'string' && !switches.reads(unsignedResponses))
        void reply.header('digest', computeDigest(switches.breaks(responseDigestWrong) ? `${sent} ` : sent));
      if (typeof sent === 'string' && /\bgzip\b/i.test(header(request, 'accept-encoding') ?? '') && switches.reads(gzipWhenAsked)) {
        void reply.header('content-encoding', 'gzip');
        next(null, gzipSync(sent));
        return;
      }
      next(null, sent);
    });
    done();
  },
  { name: 'format', decorators: { request: ['world'] }, dependencies: ['signature'] },
);

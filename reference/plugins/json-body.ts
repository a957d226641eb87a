// "All bodies are JSON ... UTF-8": after the signature check, a /v1 body is parsed
// as JSON. A body in another media type, invalid UTF-8 or malformed JSON is the
// TPP's error (4xx FORMAT_ERROR), never the bank's.
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { BankError } from '../bank-errors.js';
import { defineFault, type TppSwitches } from '../switches.js';
import { checkHook, header } from '../http/request-context.js';

const serverErrorOnBadJson = defineFault('server-error-on-bad-json', {
  description: 'a malformed JSON body gives 500 instead of 400',
  breaks: ['ERR-44'],
});

const xmlBodyAccepted = defineFault('xml-body-accepted', {
  description: 'reads an XML body (flat elements) as if it were the JSON object',
  breaks: ['FMT-02'],
});
const bodyUtf8Unchecked = defineFault('body-utf8-unchecked', {
  description: 'decodes a body that is not valid UTF-8 with replacement characters instead of refusing it',
  breaks: ['FMT-11'],
});
const emojiServerError = defineFault('emoji-server-error', {
  description: 'a character outside the Basic Multilingual Plane (an emoji) in a body gives 500 instead of 400',
  breaks: ['FMT-04', 'ERR-36', 'ERR-45'],
});

const JSON_MEDIA_TYPE = /^application\/([a-z0-9.+-]+\+)?json$/;
const XML_MEDIA_TYPE = /^(application|text)\/([a-z0-9.+-]+\+)?xml$/;

/** What the downstream systems cannot take: characters outside the Basic Multilingual Plane (emoji and the like). */
const OUTSIDE_BMP = /[\u{10000}-\u{10FFFF}]/u;

/** Deeper than any body of the interface: a body nested further is refused rather than walked. */
const MAX_DEPTH = 64;

/**
 * Walks a parsed body without recursion (a hostile body can nest a hundred thousand levels): a problem
 * that makes it unprocessable, or undefined.
 */
function unprocessable(body: unknown): { text: string } | { depth: true } | undefined {
  const pending: [unknown, number][] = [[body, 0]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [value, depth] = next;
    if (typeof value === 'string') {
      if (OUTSIDE_BMP.test(value)) return { text: value };
    } else if (value !== null && typeof value === 'object') {
      if (depth >= MAX_DEPTH) return { depth: true };
      for (const child of Array.isArray(value) ? value : Object.values(value)) pending.push([child, depth + 1]);
    }
  }
  return undefined;
}

/** Flat XML elements as an object: only what the xml-body-accepted fault needs. */
function flatXml(text: string): Record<string, string> {
  return Object.fromEntries([...text.matchAll(/<(\w+)>([^<]*)<\/\1>/g)].map(([, name = '', value = '']) => [name, value]));
}

function parse(request: FastifyRequest, body: Buffer): unknown {
  const { switches } = request;
  const [mediaType = '', ...parameters] = (header(request, 'content-type') ?? '').split(';').map((p) => p.trim().toLowerCase());
  if (XML_MEDIA_TYPE.test(mediaType) && switches.breaks(xmlBodyAccepted)) return flatXml(body.toString('utf8'));
  if (!JSON_MEDIA_TYPE.test(mediaType)) {
    throw new BankError(415, 'FORMAT_ERROR', `Unsupported media type "${mediaType || '(none)'}": bodies are application/json`);
  }
  const charset = parameters
    .find((p) => p.startsWith('charset='))
    ?.slice('charset='.length)
    .replaceAll('"', '');
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
    throw new BankError(415, 'FORMAT_ERROR', `Unsupported charset "${charset}": bodies are UTF-8`);
  }
  let text: string;
  try {
    text = decodeUtf8(body, switches);
  } catch {
    throw new BankError(400, 'FORMAT_ERROR', 'Malformed JSON body: the body is not valid UTF-8');
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    // Only the JSON parser fails under the fault: a body that is not UTF-8 was refused before it (FMT-03).
    if (switches.breaks(serverErrorOnBadJson)) throw new Error('JSON parser failure', { cause: error });
    throw new BankError(400, 'FORMAT_ERROR', `Malformed JSON body: ${(error as Error).message}`);
  }
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
const lenientUtf8 = new TextDecoder('utf-8');

/** The body as text; bytes that are not UTF-8 are the TPP's error (thrown), unless a fault decodes them with replacement characters. */
function decodeUtf8(body: Buffer, switches: TppSwitches): string {
  try {
    return strictUtf8.decode(body);
  } catch (error) {
    if (!switches.breaks(bodyUtf8Unchecked)) throw error;
    return lenientUtf8.decode(body);
  }
}

export const jsonBodyPlugin = fp(
  (api, _options, done) => {
    api.addHook(
      'preValidation',
      checkHook((request) => {
        const body = request.rawBody;
        if (body === null || body.length === 0) return;
        const parsed = parse(request, body);
        // Data format: "If a downstream system rejects a character (for example an emoji), the service answers 400."
        const problem = unprocessable(parsed);
        if (problem !== undefined && 'depth' in problem)
          throw new BankError(400, 'FORMAT_ERROR', `The body is nested deeper than ${MAX_DEPTH} levels`);
        if (problem !== undefined) {
          if (request.switches.breaks(emojiServerError)) throw new Error('downstream system rejected a character');
          throw new BankError(
            400,
            'FORMAT_ERROR',
            `"${problem.text}" holds a character the downstream systems cannot process (outside the Basic Multilingual Plane)`,
          );
        }
        request.body = parsed;
      }),
    );
    done();
  },
  { name: 'json-body', decorators: { request: ['switches'] }, dependencies: ['signature'] },
);

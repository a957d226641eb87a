// "All bodies are JSON ... UTF-8": after the signature check, a /v1 body is parsed
// as JSON. A body in another media type, invalid UTF-8 or malformed JSON is the
// TPP's error (4xx FORMAT_ERROR), never the bank's.
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { BankError } from '../errors.js';
import { defineFault } from '../faults.js';
import { checkHook, header } from './shared.js';

const serverErrorOnBadJson = defineFault('server-error-on-bad-json', {
  description: 'a malformed JSON body gives 500 instead of 400',
  breaks: ['ERR-44'],
});

const JSON_MEDIA_TYPE = /^application\/([a-z0-9.+-]+\+)?json$/;

function parse(request: FastifyRequest, body: Buffer, serverErrorOnBadJson: boolean): unknown {
  const [mediaType = '', ...parameters] = (header(request, 'content-type') ?? '').split(';').map((p) => p.trim().toLowerCase());
  if (!JSON_MEDIA_TYPE.test(mediaType)) {
    throw new BankError(415, 'FORMAT_ERROR', `Unsupported media type "${mediaType || '(none)'}": bodies are application/json`);
  }
  const charset = parameters.find((p) => p.startsWith('charset='))?.slice('charset='.length).replaceAll('"', '');
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
    throw new BankError(415, 'FORMAT_ERROR', `Unsupported charset "${charset}": bodies are UTF-8`);
  }
  try {
    return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body)) as unknown;
  } catch (error) {
    if (serverErrorOnBadJson) throw new Error('JSON parser failure', { cause: error });
    const reason = error instanceof SyntaxError ? error.message : 'the body is not valid UTF-8';
    throw new BankError(400, 'FORMAT_ERROR', `Malformed JSON body: ${reason}`);
  }
}

export const jsonBodyPlugin = fp(
  (api, _options, done) => {
    const { faults } = api.bank;
    api.addHook(
      'preValidation',
      checkHook((request) => {
        const body = request.rawBody;
        if (body !== null && body.length > 0) request.body = parse(request, body, faults.on(serverErrorOnBadJson, request.tppId));
      }),
    );
    done();
  },
  { name: 'json-body', decorators: { fastify: ['bank'] }, dependencies: ['signature'] },
);

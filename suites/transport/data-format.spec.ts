/**
 * What the service does > Data format: all bodies are JSON (XML is not supported), requests and responses
 * use UTF-8, and a character a downstream system cannot take gets 400. The body cases use the sandbox
 * mock-data operation that takes a body (customers), so they need that capability and write to the target.
 */
import { randomInt } from 'node:crypto';
import { scenario, servedOrScaAsked, test, type ScenarioFixtures } from '../../lib/fixtures/index.js';

const MOCK_DATA = { needs: ['sandbox-mock-data'], writes: 'creates a sandbox customer' } as const;

/** A customer no other scenario uses: a fresh 11-digit mocked national id. */
const newCustomer = (name: string) => ({ customerNumber: `9${String(randomInt(1e9)).padStart(10, '0')}`, name, type: 'private' });

/** UTF-8 bytes of a text as the latin1 string an HTTP header value is sent as. */
const utf8HeaderValue = (text: string) => Buffer.from(text, 'utf8').toString('latin1');

type Fixtures = Pick<ScenarioFixtures, 'tpp' | 'paths' | 'check' | 'sandbox'>;

test(
  ...scenario(
    'FMT-02.a',
    'an XML body is refused with a 4xx and creates nothing',
    { checks: ['FMT-02'], ...MOCK_DATA },
    async ({ tpp, sandbox, check }: Fixtures) => {
      const { customerNumber, name } = newCustomer('Xml Kunde');
      const xml = `<?xml version="1.0" encoding="UTF-8"?><customer><customerNumber>${customerNumber}</customerNumber><name>${name}</name><type>private</type></customer>`;
      const response = await tpp.request({
        ...sandbox.endpoint('createCustomer'),
        rawBody: xml,
        headers: { 'Content-Type': 'application/xml' },
        malformed: 'an XML body',
      });
      check.status('FMT-02', response);
    },
  ),
);

test(
  ...scenario(
    'FMT-03.a',
    'UTF-8 text in a header value is accepted (or refused with 400, as a character a downstream system rejects), and a charset the response declares is utf-8',
    { checks: ['FMT-03'] },
    async ({ tpp, paths, check }: Fixtures) => {
      const response = await tpp.get(paths('accounts'), {
        headers: { 'TPP-Brand-Logging-Information': utf8HeaderValue('Brønnøysund Økonomi ÆØÅ') },
      });
      // "If a downstream system rejects a character (for example an emoji), the service answers 400": a gateway
      // that passes ASCII header values only is such a system. Taken, or refused with that 400 (any other refusal fails).
      check.acceptedOrRefused('FMT-03', response);
      const charset = /;\s*charset="?([^";\s]+)/i.exec(response.headers['content-type'] ?? '')?.[1];
      check.that('FMT-03', charset === undefined || /^utf-?8$/i.test(charset), {
        expected: 'no charset, or charset=utf-8',
        actual: `Content-Type ${response.headers['content-type'] ?? '(none)'}`,
      });
    },
  ),
);

test(
  ...scenario(
    'FMT-03.b',
    'a TPP-Session-ID that is not valid UTF-8 is refused with 400, or taken as opaque bytes',
    { checks: ['FMT-12', 'ERR-21'] },
    async ({ tpp, paths, check }: Fixtures) => {
      const response = await tpp.get(paths('accounts'), {
        headers: { 'TPP-Session-ID': `session-\xff\xfe-${randomInt(1e9)}` },
        malformed: 'bytes 0xFF 0xFE in TPP-Session-ID',
      });
      // RFC 9110 lets a recipient treat such bytes as opaque: taken, or refused with 400 (and then a code of a malformed request).
      const judged = check.acceptedOrRefused('FMT-12', response);
      if (servedOrScaAsked(response))
        return check.notEvaluated(
          ['ERR-21'],
          'not evaluated: the bank took the header value as opaque bytes, so there is no refusal code to judge',
        );
      check.code('ERR-21', response, { after: judged });
    },
  ),
);

test(
  ...scenario(
    'FMT-03.c',
    'a body that is not valid UTF-8 is refused with 400',
    { checks: ['FMT-11', 'ERR-21'], ...MOCK_DATA },
    async ({ tpp, sandbox, check }: Fixtures) => {
      const [before = '', after = ''] = JSON.stringify(newCustomer('Invalid BYTES here')).split('BYTES');
      const body = Buffer.concat([Buffer.from(before), Buffer.from([0xff, 0xfe]), Buffer.from(after)]);
      const response = await tpp.request({
        ...sandbox.endpoint('createCustomer'),
        rawBody: body,
        headers: { 'Content-Type': 'application/json' },
        malformed: 'bytes 0xFF 0xFE in the body',
      });
      const refused = check.status('FMT-11', response);
      check.code('ERR-21', response, { after: refused });
    },
  ),
);

test(
  ...scenario(
    'FMT-04.a',
    'an emoji in a text field is taken, or refused with 400, never a 5xx',
    { checks: ['FMT-04', 'ERR-36'], ...MOCK_DATA },
    async ({ sandbox, check }: Fixtures) => {
      const response = await sandbox.perform('createCustomer', newCustomer('Kari Nordmann \u{1F600}'));
      // Taken (a mock-data operation names no success status: any 2xx), or refused with the status the entry gives.
      for (const requirement of ['FMT-04', 'ERR-36']) check.acceptedOrRefused(requirement, response);
    },
  ),
);

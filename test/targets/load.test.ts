import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ConfigError, interpolateTarget, parseTargetsFile, selectTarget } from '../../lib/targets/load.js';

const VALID = `
targets:
  reference: { embedded: true, environment: sandbox }
  sandbox:
    baseUrl: \${SANDBOX_URL}
    environment: staging
    tls: { ca: "\${CA_FILE}" }
    tpp: { certificate: c.pem, privateKey: k.pem, redirectUri: https://tpp.example/cb }
`;

function rejects(text: string, field: RegExp, detail: RegExp): void {
  assert.throws(
    () => parseTargetsFile(text),
    (error: unknown) => {
      assert.ok(error instanceof ConfigError, String(error));
      assert.match(error.message, field);
      assert.match(error.message, detail);
      return true;
    },
  );
}

describe('targets.yaml loading', () => {
  test('a valid file parses', () => {
    const file = parseTargetsFile(VALID);
    assert.deepEqual(Object.keys(file.targets), ['reference', 'sandbox']);
  });

  test('an SCA step may read an element into the capture (read: { selector, as }); both are required', () => {
    const withRead = (step: string) => `${VALID}    sca:\n      - match: "**/confirm"\n        steps:\n          - ${step}\n`;
    const file = parseTargetsFile(withRead('read: { selector: "#payment-summary", as: paymentSummary }'));
    assert.deepEqual(file.targets.sandbox?.sca?.[0]?.steps, [{ read: { selector: '#payment-summary', as: 'paymentSummary' } }]);
    assert.throws(() => parseTargetsFile(withRead('read: { selector: "#payment-summary" }')), ConfigError);
  });

  test('a wrong environment names the field and the allowed values', () => {
    rejects(VALID.replace('environment: staging', 'environment: prod'), /targets\.sandbox\.environment/, /sandbox, staging, production/);
  });

  test('an unknown field is named', () => {
    rejects(VALID.replace('tls: {', 'tsl: {'), /targets\.sandbox\.tsl/, /unknown field/);
  });

  test('a missing required field is named', () => {
    rejects(VALID.replace('redirectUri: https://tpp.example/cb', 'privateKey2: x'), /targets\.sandbox\.tpp/, /.+/);
    rejects('targets:\n  x: { embedded: true }\n', /targets\.x\.environment/, /required/);
  });

  test('a capability that does not exist is named', () => {
    rejects('targets:\n  x: { embedded: true, environment: sandbox, capabilities: [time-travel] }\n', /targets\.x\.capabilities\[0\]/, /clock-control/);
  });

  test('a malformed deviation id is named', () => {
    rejects(
      'targets:\n  x: { embedded: true, environment: sandbox, deviations: [{ requirement: SIG4, reason: r }] }\n',
      /targets\.x\.deviations\[0\]\.requirement/,
      /wrong form/,
    );
  });

  test('a YAML syntax error gives line and column', () => {
    rejects('targets:\n  x: { embedded: true\n', /targets\.yaml:\d+:\d+/, /not valid YAML/);
  });

  test('embedded and baseUrl together are refused, and one of them is needed', () => {
    rejects('targets:\n  x: { embedded: true, baseUrl: "https://a", environment: sandbox }\n', /targets\.x/, /not both/);
    rejects('targets:\n  x: { environment: sandbox }\n', /targets\.x/, /needs `baseUrl`/);
  });

  test('an unknown target lists the known ones', () => {
    assert.throws(() => selectTarget(parseTargetsFile(VALID), 'staging'), /unknown target "staging"; known targets: reference, sandbox/);
  });

  test('${VAR} is replaced; a missing variable is named with its field', () => {
    const file = parseTargetsFile(VALID);
    const sandbox = selectTarget(file, 'sandbox');
    const resolved = interpolateTarget('sandbox', sandbox, { SANDBOX_URL: 'https://bank.example', CA_FILE: '/ca.pem' });
    assert.equal(resolved.baseUrl, 'https://bank.example');
    assert.equal(resolved.tls?.ca, '/ca.pem');
    assert.throws(
      () => interpolateTarget('sandbox', sandbox, { SANDBOX_URL: 'https://bank.example' }),
      /targets\.sandbox\.tls\.ca: environment variable CA_FILE is not set/,
    );
  });

  test('$${ escapes a literal ${', () => {
    const resolved = interpolateTarget('x', { environment: 'sandbox', description: 'cost $${HOME}' }, {});
    assert.equal(resolved.description, 'cost ${HOME}');
  });
});

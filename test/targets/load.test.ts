import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Ajv } from 'ajv';
import fc from 'fast-check';
import { ConfigError } from '../../lib/targets/config-error.js';
import { interpolateTarget, parseTargetsFile, selectTarget } from '../../lib/targets/load.js';
import { TARGETS_FILE_SCHEMA } from '../../lib/targets/targets-schema.js';

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
  test("the targets file's schema is valid against the meta-schema (the command does not check it as it loads it)", () => {
    const meta = new Ajv({ strict: true });
    assert.ok(meta.validateSchema(TARGETS_FILE_SCHEMA), meta.errorsText());
    assert.equal(meta.validateSchema({ type: 'object', required: 'name' }), false, 'a schema the meta-schema refuses');
  });

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
    rejects(
      'targets:\n  x: { embedded: true, environment: sandbox, capabilities: [time-travel] }\n',
      /targets\.x\.capabilities\[0\]/,
      /clock-control/,
    );
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

describe('${VAR} only where a secret or a path belongs', () => {
  const env = {
    SECRET: 'hunter2-secret',
    BANK: 'https://bank.example',
    NOT_A_URL: 'hunter2-secret',
    CA: '/etc/ca.pem',
    PASSWORD: 'pa55word',
  };
  const target = (extra: Record<string, unknown>) => ({ environment: 'sandbox' as const, ...extra });
  const refused = (extra: Record<string, unknown>, field: RegExp) =>
    assert.throws(
      () => interpolateTarget('x', target(extra), env),
      (error: unknown) => {
        assert.ok(error instanceof ConfigError, String(error));
        assert.match(error.message, field);
        assert.ok(!error.message.includes('hunter2'), `the value is echoed: ${error.message}`);
        return true;
      },
    );

  test('secrets, paths and whole addresses take a variable', () => {
    const resolved = interpolateTarget(
      'x',
      target({
        baseUrl: '${BANK}',
        tls: { ca: '${CA}' },
        tpp: {
          redirectUri: '${BANK}',
          privateKey: '${CA}',
          certificate: '${CA}',
          second: { certificate: '${CA}', privateKey: '${CA}' },
          testCa: { certificate: '${CA}', privateKey: '${SECRET}' },
        },
        psus: { private: { nationalId: '${SECRET}', agreement: '${SECRET}' } },
        sca: [{ match: '**/login', steps: [{ fill: { selector: '#pw', value: '${PASSWORD}' } }] }],
        scaVariants: { v: [{ match: '**/x', steps: [{ select: { selector: '#s', value: '${SECRET}' } }] }] },
      }),
      env,
    );
    assert.equal(resolved.baseUrl, 'https://bank.example');
    assert.deepEqual(resolved.sca?.[0]?.steps[0], { fill: { selector: '#pw', value: 'pa55word' } });
    assert.equal(resolved.psus?.private?.nationalId, 'hunter2-secret');
    assert.equal(resolved.tpp?.testCa?.privateKey, 'hunter2-secret');
  });

  test('any other field is refused, naming it and never the value', () => {
    refused({ description: 'key ${SECRET}' }, /targets\.x\.description: \$\{…\} is not allowed here/);
    refused({ paths: { accounts: '/v1/${SECRET}' } }, /targets\.x\.paths\.accounts/);
    refused({ sca: [{ match: '**/${SECRET}', steps: [{ click: { selector: '#go' } }] }] }, /targets\.x\.sca\[0\]\.match/);
    refused({ deviations: [{ requirement: 'SIG-04', reason: '${SECRET}' }] }, /targets\.x\.deviations\[0\]\.reason/);
  });

  test('an address takes a variable only as its whole value, and the value must be an address', () => {
    refused({ baseUrl: 'https://evil.example/${SECRET}' }, /targets\.x\.baseUrl: an environment variable here must be the whole value/);
    refused({ tpp: { redirectUri: 'https://evil.example/?k=${SECRET}' } }, /targets\.x\.tpp\.redirectUri/);
    refused(
      { baseUrl: '${NOT_A_URL}' },
      /targets\.x\.baseUrl: the value of NOT_A_URL is not an https:\/\/ address \(its value is not shown\)/,
    );
  });
});

describe('every malformed targets file is a configuration error (exit 2)', () => {
  test('a YAML alias bomb is refused, not expanded', () => {
    const bomb = [
      'a: &a ["x","x","x","x","x","x","x","x","x"]',
      ...Array.from(
        { length: 8 },
        (_, i) =>
          `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [${Array(9)
            .fill(`*${String.fromCharCode(97 + i)}`)
            .join(',')}]`,
      ),
      'targets: { x: { embedded: true, environment: sandbox } }',
    ].join('\n');
    rejects(bomb, /targets\.yaml/, /not a usable YAML document/);
  });

  test('a target named like a property of every object (constructor, __proto__, toString) is an unknown target', () => {
    for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
      assert.throws(() => selectTarget(parseTargetsFile(VALID), name), new RegExp(`unknown target "${name}"`));
    }
  });

  test('whatever the file holds, the only error is a ConfigError (property)', () => {
    const fragments = fc.constantFrom(
      'targets:',
      '  x:',
      '    environment: sandbox',
      '    embedded: true',
      '&a',
      '*a',
      '<<: *a',
      '!!binary',
      '- ',
      '{',
      '}',
      '[',
      ']',
      ':',
      '"',
      "'",
      '\t',
      '%YAML 1.2',
      '---',
      '...',
      '? ',
      '|',
      '>',
      '#',
      '\u0000',
      '\ufeff',
      'constructor:',
      '__proto__:',
    );
    fc.assert(
      fc.property(fc.array(fc.oneof(fragments, fc.string()), { maxLength: 30 }), (parts) => {
        try {
          parseTargetsFile(parts.join('\n'));
        } catch (error) {
          if (!(error instanceof ConfigError)) throw error;
        }
      }),
      { numRuns: 1000 },
    );
  });
});

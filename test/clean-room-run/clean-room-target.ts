/**
 * The clean-room bank (test/clean-room-bank/, written from the specification alone) as a target of the suite:
 * started in this process on a certificate of a test CA, described in a targets.yaml as a bank's QA team
 * would describe theirs, from its README alone: its SCA pages (one URL for every step, told apart by
 * `body[data-step]`), its sandbox operations where they are not the vendor's shapes, and its clock (which
 * never judges a Date: `dates: real-time`).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { generateCertificateAuthority, generateServerCertificate, generateTppCertificate } from '../../lib/pki/index.js';
import type { ScaPageRule, TargetConfig } from '../../lib/targets/target-types.js';
import { startCleanRoomBank } from '../clean-room-bank/index.js';

const step = (name: string, steps: ScaPageRule['steps'], optional = false): ScaPageRule => ({
  match: '**/sca/*',
  when: `body[data-step=${name}]`,
  ...(optional ? { optional } : {}),
  steps,
});

/** The clean-room bank's SCA pages, as its README describes them. */
const SCA: ScaPageRule[] = [
  step('login', [{ fill: { selector: '#national-id', value: '{{psu.nationalId}}' } }, { click: { selector: '#login-button' } }]),
  step(
    'context',
    [{ check: { selector: "input[name=context][id^='context-{{psu.context}}' i] >> nth=0" } }, { click: { selector: '#continue-button' } }],
    true,
  ),
  step('consent', [{ check: { selector: 'input[name=account]', all: true } }, { click: { selector: '#confirm-button' } }], true),
  step('payment', [{ read: { selector: '#payment-details', as: 'paymentSummary' } }, { click: { selector: '#approve-button' } }], true),
  step('basket', [{ click: { selector: '#approve-button' } }], true),
];

export interface CleanRoomTarget {
  /** The targets.yaml that describes it, as target `clean-room`. */
  targetsFile: string;
  close(): Promise<void>;
}

export async function startCleanRoomTarget(dir: string): Promise<CleanRoomTarget> {
  const serverCa = generateCertificateAuthority({ commonName: 'Clean-room bank CA' });
  const server = generateServerCertificate(serverCa, { hostnames: ['localhost'], ipAddresses: ['127.0.0.1'] });
  const issuer = generateCertificateAuthority({ commonName: 'Clean-room TPP issuer' });
  const tpps = [1, 2].map((n) =>
    generateTppCertificate(issuer, {
      organizationName: `Clean-room TPP ${n}`,
      organizationIdentifier: `PSDNO-FSA-CR${n}`,
      roles: ['PSP_AI', 'PSP_PI'],
    }),
  );
  const bank = await startCleanRoomBank({ cert: server.certificatePem, key: server.privateKeyPem, trustCa: issuer.certificatePem });
  const file = (name: string, content: string) => {
    writeFileSync(join(dir, name), content, { mode: 0o600 });
    return join(dir, name);
  };
  const target: TargetConfig = {
    description: 'The clean-room bank: written from the specification alone (test/clean-room-bank/README.md)',
    baseUrl: bank.url,
    environment: 'sandbox',
    tls: { ca: file('bank-ca.pem', serverCa.certificatePem) },
    tpp: {
      certificate: file('tpp.pem', tpps[0]?.certificatePem ?? ''),
      privateKey: file('tpp-key.pem', tpps[0]?.privateKeyPem ?? ''),
      redirectUri: 'https://tpp.example/callback',
      second: {
        certificate: file('tpp2.pem', tpps[1]?.certificatePem ?? ''),
        privateKey: file('tpp2-key.pem', tpps[1]?.privateKeyPem ?? ''),
      },
      // The CA the bank is told to trust (--trust-ca): the run issues its certificate variants from it.
      testCa: { certificate: file('tpp-issuer.pem', issuer.certificatePem), privateKey: file('tpp-issuer-key.pem', issuer.privateKeyPem) },
    },
    psus: {
      private: { nationalId: '13039319955', context: 'PRIVATE' },
      private2: { nationalId: '12085592767', context: 'PRIVATE' },
      corporate: { nationalId: '18129215603', context: 'CORPORATE' },
      // A PSU of the known state for scenarios that need one every TPP knows (this bank keeps a world per TPP).
      isolated: { nationalId: '01078900497', context: 'PRIVATE' },
    },
    scaDriver: 'http',
    sca: SCA,
    scaVariants: {
      'reject-payment': [
        step('payment', [{ click: { selector: '#reject-button' } }], true),
        step('basket', [{ click: { selector: '#reject-button' } }], true),
      ],
      'confirm-as-offered': [step('consent', [{ click: { selector: '#confirm-button' } }])],
      'first-account-only': [
        step('consent', [
          { uncheck: { selector: 'input[name=account]', all: true } },
          { check: { selector: 'input[name=account] >> nth=0' } },
          { click: { selector: '#confirm-button' } },
        ]),
      ],
      'cancel-at-consent': [step('consent', [{ click: { selector: '#cancel-button' } }])],
    },
    capabilities: [
      'sandbox-reset',
      'sandbox-mock-data',
      'clock-control',
      'corporate-psu',
      'consent-selection',
      'second-tpp',
      'sca-abort',
      'test-ca-trusted',
    ],
    sandbox: {
      dates: 'real-time',
      operations: {
        setAccountBalances: { method: 'PUT', path: '/v1/sandbox/accounts/{accountId}/balances', body: { balances: '{{balances}}' } },
        setCardAccountBalances: {
          method: 'PUT',
          path: '/v1/sandbox/card-accounts/{accountId}/balances',
          body: { balances: '{{balances}}' },
        },
        setOwnerName: { method: 'PUT', path: '/v1/sandbox/accounts/{accountId}/owner-name', body: { ownerName: '{{ownerName}}' } },
        renameCustomer: { method: 'PATCH', path: '/v1/sandbox/customers/{customerNumber}', body: { name: '{{name}}' } },
        closeAccount: { method: 'PATCH', path: '/v1/sandbox/accounts/{accountId}', body: { status: 'deleted' } },
        freezeClock: { method: 'POST', path: '/v1/sandbox/clock', body: { now: '{{at}}' } },
        shiftClock: { method: 'POST', path: '/v1/sandbox/clock', body: { advanceSeconds: '{{advanceSeconds}}' } },
        resetClock: { method: 'POST', path: '/v1/sandbox/clock', body: { reset: true } },
      },
    },
  };
  const targetsFile = file('targets.yaml', stringify({ targets: { 'clean-room': target } }));
  return { targetsFile, close: () => bank.close() };
}

/**
 * The requirement catalogue (lib/spec/requirements.ts) and its coverage by the suites (lib/cli/suite-listing.ts, lib/spec/coverage.ts).
 * The spot checks list the rows of the specification's tables by name: a row without an entry fails here.
 */
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { formatTable } from '../../lib/cli/commands/requirements-command.js';
import { COMMANDS } from '../../lib/cli/commands/index.js';
import { runProgram } from '../../lib/cli/program.js';
import { PACKAGE_ROOT } from '../../lib/cli/package-root.js';
import { SuiteListingError, listSuiteTests, parsePlaywrightListing } from '../../lib/cli/suite-listing.js';
import { requirementIdOfTag, uncoveredRequirements, unknownRequirementIds } from '../../lib/spec/coverage.js';
import {
  AREAS,
  AREA_PREFIXES,
  BANK_REQUIREMENTS,
  CAPABILITIES,
  LEVELS,
  REQUIREMENTS,
  REQUIREMENT_ID_PATTERN,
  requirementById,
  type Requirement,
} from '../../lib/spec/requirements.js';
import { scratchDir } from '../support/scratch.js';

const sections = REQUIREMENTS.map((r) => r.section);
const hasSection = (section: string): boolean => sections.includes(section);
const hasSectionOrChild = (section: string): boolean =>
  sections.some((s) => s === section || s.startsWith(`${section}.`) || s.startsWith(`${section} >`));

function missing(rows: readonly string[], prefix: string, match: (section: string) => boolean = hasSection): string[] {
  return rows.filter((row) => !match(`${prefix}${row}`));
}

void describe('requirement catalogue: ids', () => {
  void it('has at least 150 entries', () => {
    assert.ok(REQUIREMENTS.length >= 150, `only ${REQUIREMENTS.length} entries`);
  });

  void it('ids are well formed and unique, and their prefix is their area', () => {
    const seen = new Set<string>();
    for (const r of REQUIREMENTS) {
      assert.match(r.id, REQUIREMENT_ID_PATTERN, `malformed id ${r.id}`);
      assert.ok(!seen.has(r.id), `duplicate id ${r.id}`);
      seen.add(r.id);
      assert.equal(r.id.slice(0, 3), r.area, `${r.id} is filed under area ${r.area}`);
      assert.ok(AREA_PREFIXES.includes(r.area), `${r.id}: unknown area ${r.area}`);
    }
  });

  void it('numbers each area from 01 without gaps (retired ids stay in place)', () => {
    for (const area of AREA_PREFIXES) {
      const numbers = REQUIREMENTS.filter((r) => r.area === area).map((r) => Number(r.id.slice(4)));
      assert.deepEqual(
        [...numbers].sort((a, b) => a - b),
        numbers.map((_, i) => i + 1),
        `area ${area} is not numbered 1..${numbers.length}`,
      );
    }
  });

  void it('every area has entries and a title', () => {
    for (const area of AREA_PREFIXES) {
      assert.ok(AREAS[area].length > 0, `area ${area} has no title`);
      assert.ok(
        REQUIREMENTS.some((r) => r.area === area),
        `area ${area} is empty`,
      );
    }
  });

  void it('requirementById finds every entry, with or without the leading @, and nothing else', () => {
    for (const r of REQUIREMENTS) {
      assert.equal(requirementById(r.id), r);
      assert.equal(requirementById(`@${r.id}`), r);
    }
    assert.equal(requirementById('XYZ-01'), undefined);
    assert.equal(requirementById('SIG-999'), undefined);
  });
});

void describe('requirement catalogue: entries', () => {
  void it('levels are MUST, SHOULD, MAY or INFO', () => {
    for (const r of REQUIREMENTS) assert.ok(LEVELS.includes(r.level), `${r.id}: level ${r.level}`);
  });

  void it('statements are one non-empty line under 200 characters without surrounding spaces', () => {
    for (const r of REQUIREMENTS) {
      assert.ok(r.statement.length > 10, `${r.id}: statement too short`);
      assert.ok(r.statement.length < 200, `${r.id}: statement has ${r.statement.length} characters`);
      assert.equal(r.statement, r.statement.trim(), `${r.id}: statement has surrounding spaces`);
      assert.ok(!/[\n\r\t]/.test(r.statement), `${r.id}: statement is not one line`);
      assert.ok(!r.statement.includes('|'), `${r.id}: statement looks like a copied table row`);
    }
  });

  void it('sections are given, interpretations are non-empty when present', () => {
    for (const r of REQUIREMENTS) {
      assert.ok(r.section.trim().length > 0, `${r.id}: no section`);
      assert.equal(r.section, r.section.trim(), `${r.id}: section has surrounding spaces`);
      if (r.interpretation !== undefined) {
        assert.ok(r.interpretation.trim().length > 20, `${r.id}: interpretation too short`);
        assert.equal(r.interpretation, r.interpretation.trim(), `${r.id}: interpretation has surrounding spaces`);
      }
    }
  });

  void it('testedBy is automated, needs-capability:<known capability> or manual:<why>', () => {
    for (const r of REQUIREMENTS) {
      if (r.testedBy === 'automated') continue;
      if (r.testedBy.startsWith('needs-capability:')) {
        const capability = r.testedBy.slice('needs-capability:'.length);
        assert.ok(Object.hasOwn(CAPABILITIES, capability), `${r.id}: unknown capability "${capability}"`);
      } else {
        assert.ok(r.testedBy.startsWith('manual:'), `${r.id}: testedBy "${r.testedBy}"`);
        assert.ok(r.testedBy.slice('manual:'.length).trim().length > 5, `${r.id}: manual without a reason`);
      }
    }
  });

  void it('every capability is used by at least one entry', () => {
    for (const capability of Object.keys(CAPABILITIES)) {
      assert.ok(
        REQUIREMENTS.some((r) => r.testedBy === `needs-capability:${capability}`),
        `capability ${capability} is unused`,
      );
    }
  });

  void it('ids cited in statements and interpretations exist', () => {
    for (const r of REQUIREMENTS) {
      for (const [cited] of `${r.statement} ${r.interpretation ?? ''}`.matchAll(/\b(?!SHA-)[A-Z]{3}-\d{2,3}\b/g)) {
        assert.ok(requirementById(cited), `${r.id} cites ${cited}, which does not exist`);
      }
    }
  });

  void it('entries are grouped by area and ascending within it', () => {
    const order = REQUIREMENTS.map((r) => r.id);
    for (const area of AREA_PREFIXES) {
      const positions = order.map((id, i) => (id.startsWith(`${area}-`) ? i : -1)).filter((i) => i >= 0);
      assert.equal(positions.at(-1)! - positions[0]! + 1, positions.length, `area ${area} is not contiguous`);
    }
  });
});

void describe('requirement catalogue: spot checks of the specification tables', () => {
  void it('every payment request row has an entry', () => {
    const rows = [
      'endToEndIdentification',
      'instructedAmount',
      'instructedAmount.amount',
      'instructedAmount.currency',
      'creditorName',
      'creditorAccount',
      'creditorAddress',
      'debtorAccount',
      'remittanceInformationUnstructured',
      'requestedExecutionDate',
    ];
    assert.deepEqual(missing(rows, 'Resources > Payment initiation request > '), []);
    // the sub-fields the rows name
    const subFields = [
      'creditorAccount.iban',
      'creditorAccount.currency',
      'creditorAddress.street',
      'creditorAddress.buildingNumber',
      'creditorAddress.city',
      'creditorAddress.townName',
      'creditorAddress.country',
      'debtorAccount.iban',
      'debtorAccount.currency',
    ];
    assert.deepEqual(missing(subFields, 'Resources > Payment initiation request > '), []);
  });

  void it('every payment response row has an entry', () => {
    const rows = ['paymentId', 'transactionStatus', 'transactionFees', 'transactionFeeIndicator', 'tppMessages', 'psuMessage', '_links'];
    assert.deepEqual(missing(rows, 'Resources > Payment initiation response > '), []);
  });

  void it('every tppMessages item row and the Link parts have an entry', () => {
    assert.deepEqual(missing(['category', 'code', 'path', 'text'], 'Resources > tppMessages item > '), []);
    assert.deepEqual(missing(['href', 'verbs'], 'Resources > Link > '), []);
  });

  void it('every item of the structured-address rule has an entry', () => {
    assert.deepEqual(missing(['1', '2', '3', '4', '5'], 'Resources > Structured-address rule '), []);
    const enforcement = REQUIREMENTS.filter((r) => r.section === 'Resources > Structured-address rule 5')
      .map((r) => r.statement)
      .join(' ');
    assert.match(enforcement, /13 August 2026/);
    assert.match(enforcement, /15 November 2026/);
    assert.ok(
      REQUIREMENTS.some((r) => r.area === 'ADR' && /creditorAgent/.test(r.statement)),
      'no entry for the creditor agent BIC',
    );
  });

  void it('every row of the PSU identifiers table has an entry', () => {
    assert.deepEqual(missing(['psu-id', 'psu-corporate-id', 'TPP-Session-ID'], 'Resources > Identifiers of the PSU > '), []);
  });

  void it('all three state tables have entries, every SCA session row included', () => {
    assert.ok(hasSection('States > scaStatus'));
    assert.ok(hasSection('States > transactionStatus'));
    const sessionRows = [
      'none / request requiring SCA',
      'SCA pending / PSU completes SCA',
      'SCA pending / SCA fails',
      'session valid / 1 hour passes',
      'session valid / new TPP-Session-ID, SCA completed',
      'session valid / new TPP-Session-ID, SCA aborted',
    ];
    assert.deepEqual(missing(sessionRows, 'States > SCA session > '), []);
  });

  void it('every endpoint and every row of "Other endpoints named" has an entry', () => {
    assert.ok(hasSectionOrChild('Endpoints > POST /v1/payments/sepa-credit-transfers'));
    assert.ok(hasSectionOrChild('Endpoints > POST /v1/payments/sepa-credit-transfers > allowLogicalDuplicate'));
    assert.ok(hasSection('Endpoints > GET /v1/payments/{payment-product}/{payment-id}/status'));
    assert.ok(hasSection('Endpoints > Start of signing basket authorisation'));
    const rows = [
      'GET /v1/accounts',
      'GET /v1/accounts/{id}/balances',
      'GET /v1/accounts/{id}/transactions',
      'GET /v1/user',
      'GET /v1/agreements',
      'POST /v1/consents',
      'GET /v1/sandbox/customers',
      'Known issue',
    ];
    assert.deepEqual(missing(rows, 'Endpoints > Other endpoints named > '), []);
  });

  void it('every row of the header table (21) has an entry', () => {
    const rows = [
      'x-accept-fix',
      'X-Request-ID',
      'TPP-Session-ID',
      'TPP-Redirect-URI',
      'Digest',
      'TPP-Signature-Certificate',
      'Signature',
      'PSU-ID',
      'PSU-IP-Address',
      'X-PSU-IDENTITY',
      'PSU-Corporate-ID',
      'PSU-Context',
      'TPP-Redirect-Preferred',
      'TPP-Brand-Logging-Information',
      'Accept, Accept-Charset, Accept-Encoding, Accept-Language',
      'Host',
      'PSU-IP-Port',
      'PSU-User-Agent, PSU-Accept, PSU-Accept-Charset, PSU-Accept-Encoding, PSU-Accept-Language',
      'PSU-HTTP-Method',
      'PSU-Device-ID',
      'PSU-Geo-Location',
    ];
    assert.equal(rows.length, 21);
    assert.deepEqual(missing(rows, 'Endpoints > POST /v1/payments/sepa-credit-transfers > Headers > '), []);
    // PSU-IP-Address: required when the PSU is present, absent when not
    const psuIp = REQUIREMENTS.filter((r) => r.section.endsWith('> PSU-IP-Address'));
    assert.ok(psuIp.length >= 2, 'both PSU-IP-Address presence rules need an entry');
  });

  void it('every Authentication item 1 to 16 has an entry, 1-8 under SIG and 9-16 under SCA', () => {
    for (let item = 1; item <= 16; item++) {
      const entries = BANK_REQUIREMENTS.filter((r) => new RegExp(`^Authentication ${item}( |$)`).test(r.section));
      assert.ok(entries.length > 0, `Authentication ${item} has no entry`);
      for (const r of entries) assert.equal(r.area, item <= 8 ? 'SIG' : 'SCA', `${r.id} (Authentication ${item}) is in ${r.area}`);
    }
    assert.deepEqual(missing(['keyId', 'algorithm', 'headers', 'signature'], 'Authentication 5 > '), []);
  });

  void it('every redirect parameter of Events has an entry', () => {
    assert.deepEqual(missing(['psu-id', 'psu-corporate-id', 'tpp-session-id', 'context'], 'Events > After successful SCA > '), []);
    assert.deepEqual(missing(['system', 'status', 'code', 'message'], 'Events > After failed SCA > '), []);
  });

  void it('every error body field, basket status code, message code (23 + 1) and rule 1-8 has an entry', () => {
    assert.deepEqual(missing(['id', 'system', 'status', 'code', 'message'], 'Errors > Error body > '), []);
    assert.deepEqual(missing(['201', '400', '401', '404', '500'], 'Errors > Status codes of the signing basket operation > '), []);
    const codes = [
      'SYSTEM_ERROR',
      'BAD_REQUEST',
      'FORBIDDEN',
      'NOT_FOUND',
      'CONFLICT',
      'HTTP_HEADER_REQUIRED',
      'QUERY_PARAMETER_REQUIRED',
      'SCA_NOT_FOUND',
      'SCA_EXPIRED',
      'SCA_INVALID',
      'FORMAT_ERROR',
      'RESOURCE_UNKNOWN',
      'PSU_CREDENTIALS_INVALID',
      'CONSENT_UNKNOWN',
      'CONSENT_INVALID',
      'CONSENT_EXPIRED',
      'ACCESS_EXCEEDED',
      'PRODUCT_UNKNOWN',
      'PRODUCT_INVALID',
      'KID_MISSING',
      'KID_INVALID',
      'PAYMENT_FAILED',
      'EXECUTION_DATE_INVALID',
      'REFERENCE_MIX_INVALID',
    ];
    assert.equal(codes.length, 24);
    assert.deepEqual(missing(codes, 'Errors > Message codes > '), []);
    assert.deepEqual(missing(['1', '2', '3', '4', '5', '6', '7', '8'], 'Errors > Rule '), []);
  });

  void it('every row of Limits, and the PSU-IP-Address sentence, has an entry', () => {
    const rows = [
      'Clock deviation',
      'SCA session',
      'Calls without PSU-IP-Address (balances)',
      'Calls without PSU-IP-Address (transactions)',
      'SCA renewal',
      'Default transaction page size',
      'endToEndIdentification',
      'creditorName, street',
      'IBAN',
      'remittanceInformationUnstructured',
      'country',
      'tppMessages text, psuMessage',
      'amount',
      'PSU-IP-Address',
    ];
    assert.deepEqual(missing(rows, 'Limits > '), []);
    const lim = REQUIREMENTS.filter((r) => r.area === 'LIM');
    assert.ok(
      lim.some((r) => /must not send PSU-IP-Address/.test(r.statement)),
      'the must-not half of the PSU-IP-Address sentence',
    );
  });

  void it('the four x-accept-fix values, the deprecations and the release notes have entries', () => {
    const fixes = ['amount-as-string', 'cardaccount-switch-originalamount-and-transactionamount', 'longer-names', 'cash-account-type-iso'];
    assert.deepEqual(missing(fixes, 'Versioning > x-accept-fix > '), []);
    for (const fix of fixes) {
      const entry = REQUIREMENTS.find((r) => r.section === `Versioning > x-accept-fix > ${fix}`) as Requirement;
      assert.match(entry.statement, /default since \d{1,2} \w{3} \d{4}/, `${entry.id} names the default date`);
    }
    assert.ok(REQUIREMENTS.filter((r) => r.section === 'Versioning > Deprecations').length >= 4);
    for (const release of ['1.18.0', '1.20.0', '1.21.20', '1.21.8', '1.21.18']) {
      assert.ok(hasSection(`Versioning > Release notes > ${release}`), `release ${release}`);
    }
    assert.ok(hasSection('Versioning > Path prefix'));
  });

  void it('the ambiguous rules named in the brief carry an interpretation', () => {
    const interpreted = (pattern: RegExp): boolean =>
      REQUIREMENTS.some((r) => r.interpretation !== undefined && pattern.test(r.interpretation));
    assert.ok(interpreted(/SIGNATURE_INVALID is not in the list/), 'codes of the signature 400s come from the list');
    assert.ok(interpreted(/Inclusive bound/), 'clock deviation inclusive');
    assert.ok(interpreted(/lower camel case/), 'scaStatus casing');
    assert.ok(interpreted(/requires verbs/), 'Link verbs');
    assert.ok(interpreted(/creditorAgent/), 'creditor agent BIC field');
    assert.ok(interpreted(/exactly the minor units or at most the minor units/), 'fraction digits vs minor units: two readings');
    assert.ok(interpreted(/deprecated while Versioning says it is removed/), 'Address.city: deprecated or removed');
    assert.ok(interpreted(/under the start of the basket authorisation/), 'REFERENCE_MIX_INVALID: creation or authorisation');
    assert.ok(
      interpreted(/follows the environment declared for the target, one of the two the spec knows/),
      'enforcement date per environment',
    );
  });
});

void describe('suite coverage', () => {
  void it('reads requirement ids from tags with or without @, ignoring other tags', () => {
    assert.equal(requirementIdOfTag('@SIG-04'), 'SIG-04');
    assert.equal(requirementIdOfTag('PAY-123'), 'PAY-123');
    assert.equal(requirementIdOfTag('@slow'), undefined);
    assert.equal(requirementIdOfTag('@SIG-4'), undefined);
    const report = {
      suites: [
        {
          title: 'a.spec.ts',
          specs: [{ title: 'top', tags: ['SIG-04', '@PAY-01', 'slow'] }],
          suites: [{ title: 'group', specs: [{ title: 'inner', tags: ['PAY-01'] }], suites: [] }],
        },
      ],
      errors: [],
    };
    const listing = parsePlaywrightListing(JSON.stringify(report), 0);
    assert.equal(listing.status, 'ok');
    assert.equal(listing.tests, 2);
    assert.deepEqual([...listing.ids.keys()].sort(), ['PAY-01', 'SIG-04']);
    assert.deepEqual(listing.ids.get('PAY-01'), ['a.spec.ts › top', 'a.spec.ts › group › inner']);
  });

  void it('tells "no tests found" from a crash', () => {
    const none = parsePlaywrightListing(JSON.stringify({ suites: [], errors: [{ message: 'Error: No tests found' }] }), 1);
    assert.equal(none.status, 'no-tests');
    assert.equal(none.ids.size, 0);
    assert.throws(
      () =>
        parsePlaywrightListing(
          JSON.stringify({ suites: [], errors: [{ message: 'SyntaxError: x' }, { message: 'Error: No tests found' }] }),
          1,
        ),
      SuiteListingError,
    );
    assert.throws(() => parsePlaywrightListing('not json', 1, 'Error: Cannot find module'), SuiteListingError);
    assert.equal(parsePlaywrightListing('', 1, 'Error: No tests found.').status, 'no-tests');
  });

  void it('uncovered and unknown ids are computed against the catalogue', () => {
    const used = new Map([
      ['SIG-04', ['t1']],
      ['ZZZ-01', ['t2']],
    ]);
    assert.deepEqual(unknownRequirementIds(used), ['ZZZ-01']);
    const uncovered = uncoveredRequirements(used);
    assert.ok(uncovered.every((r) => !r.testedBy.startsWith('manual:') && !r.everyExchange && r.id !== 'SIG-04'));
    assert.equal(
      uncovered.length,
      BANK_REQUIREMENTS.filter((r) => !r.testedBy.startsWith('manual:') && !r.everyExchange && !r.retired).length - 1,
    );
    // The TPP's rules are judged on its traffic (lib/tpp-judge), never by a scenario.
    assert.ok(uncovered.every((r) => r.area !== 'TPP'));
  });

  void it('with no suites, listing is empty rather than an error', async () => {
    const dir = scratchDir('xs2a-empty-suites-');
    try {
      mkdirSync(path.join(dir, 'suites'));
      const config = path.join(dir, 'pw.config.mjs');
      writeFileSync(config, "export default { testDir: './suites', testMatch: '**/*.spec.ts' };\n");
      const listing = await listSuiteTests({ cwd: PACKAGE_ROOT, config });
      assert.equal(listing.status, 'no-tests');
      assert.equal(listing.ids.size, 0);
      // no Playwright installation at all
      const bare = await listSuiteTests({ cwd: dir });
      assert.equal(bare.status, 'not-set-up');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  void it('a suite that does not load is an error, not an empty listing', async () => {
    const dir = scratchDir('xs2a-broken-suites-');
    try {
      mkdirSync(path.join(dir, 'suites'));
      writeFileSync(path.join(dir, 'suites', 'broken.spec.mjs'), "throw new Error('this suite does not load');\n");
      const config = path.join(dir, 'pw.config.mjs');
      writeFileSync(config, "export default { testDir: './suites', testMatch: '**/*.spec.mjs' };\n");
      await assert.rejects(listSuiteTests({ cwd: PACKAGE_ROOT, config }), SuiteListingError);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  void it('every requirement id the suites name is in the catalogue', async () => {
    const listing = await listSuiteTests({ cwd: PACKAGE_ROOT });
    const unknown = unknownRequirementIds(listing.ids);
    assert.deepEqual(
      unknown.map((id) => `${id} (${(listing.ids.get(id) ?? []).join('; ')})`),
      [],
      'suite tests name requirement ids the catalogue does not have',
    );
  });
});

void describe('requirements command', () => {
  const requirementsCommand = (args: string[]) => runProgram(COMMANDS, ['requirements', ...args]);
  void it('answers 2 for an unknown flag or value, naming it', async () => {
    const write = process.stderr.write.bind(process.stderr);
    const messages: string[] = [];
    process.stderr.write = (chunk: string) => messages.push(String(chunk)) > 0;
    try {
      assert.equal(await requirementsCommand(['--nope']), 2);
      assert.equal(await requirementsCommand(['--level', 'OFTEN']), 2);
      assert.equal(await requirementsCommand(['--area', 'XYZ']), 2);
    } finally {
      process.stderr.write = write;
    }
    assert.match(messages.join('\n'), /--nope/);
    assert.match(messages.join('\n'), /--level.*OFTEN/);
    assert.match(messages.join('\n'), /--area.*XYZ/);
  });

  void it('lists the filtered catalogue as a table or as JSON', async () => {
    const log = console.log;
    const out: string[] = [];
    console.log = (...args: unknown[]) => void out.push(args.map(String).join(' '));
    try {
      assert.equal(await requirementsCommand(['--json', '--area', 'LIM', '--level', 'MUST']), 0);
      const entries = JSON.parse(out.join('\n')) as Requirement[];
      assert.ok(entries.length > 0);
      assert.ok(entries.every((r) => r.area === 'LIM' && r.level === 'MUST' && typeof r.section === 'string'));
      out.length = 0;
      assert.equal(await requirementsCommand(['--area', 'VER', '--tested-by', 'manual']), 0);
      const text = out.join('\n');
      assert.match(text, /VER-02 +INFO +VER +manual/);
      assert.match(text, /\d+ requirements? \(/);
    } finally {
      console.log = log;
    }
  });

  void it('fits the table into the line width', () => {
    for (const line of formatTable(REQUIREMENTS, 100).split('\n')) assert.ok(line.length <= 100, `line too long: ${line}`);
  });
});

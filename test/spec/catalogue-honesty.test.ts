/**
 * The catalogue is never stricter than its sources: what an entry rests on (basis, source), how strong it
 * is (level), and which statuses and codes satisfy it (expect) must agree with each other and with the
 * specification's code list. A report built on the catalogue states that a bank breaks a rule; these
 * tests keep a rule the specification does not contain from reaching such a report as a MUST.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  BASES,
  BELOW_SERVER_ERROR_STATUSES,
  CAPABILITIES,
  CLIENT_ERROR_STATUSES,
  REQUIREMENTS,
  requirementById,
  type Requirement,
} from '../../lib/spec/requirements.js';
import { MESSAGE_CODES } from '../../lib/spec/schemas/index.js';

const live = REQUIREMENTS.filter((r) => !r.retired);
const byId = (id: string): Requirement => {
  const r = requirementById(id);
  assert.ok(r, `${id} is missing`);
  return r;
};
const listCodes = new Set<string>(MESSAGE_CODES);

/** Berlin Group codes the specification's list does not have: they may be named only to say so. */
const BERLIN_GROUP_ONLY_CODES = [
  'SIGNATURE_MISSING',
  'SIGNATURE_INVALID',
  'TIMESTAMP_INVALID',
  'CERTIFICATE_INVALID',
  'CERTIFICATE_EXPIRED',
  'CERTIFICATE_BLOCKED',
  'CERTIFICATE_REVOKE',
  'CERTIFICATE_MISSING',
  'ROLE_INVALID',
  'CORPORATE_ID_INVALID',
  'PARAMETER_NOT_CONSISTENT',
  'PARAMETER_NOT_SUPPORTED',
  'SERVICE_INVALID',
  'SERVICE_BLOCKED',
  'STATUS_INVALID',
  'RESOURCE_EXPIRED',
  'PERIOD_INVALID',
  'REQUIRED_KID_MISSING',
  'REFERENCE_STATUS_INVALID',
  'REQUESTED_FORMATS_INVALID',
  'CANCELLATION_INVALID',
  'TOKEN_UNKNOWN',
  'TOKEN_INVALID',
  'TOKEN_EXPIRED',
  'SCA_METHOD_UNKNOWN',
];

/** HTTP statuses as an entry would name them (other three-digit numbers are lengths, days or sizes). */
const HTTP_STATUSES = new Set([
  200, 201, 202, 204, 301, 302, 303, 307, 308, 400, 401, 403, 404, 405, 406, 409, 415, 422, 429, 500, 502, 503, 504,
]);

/** Statuses named in a text, with whether the naming is a negation ("never 201", "not 401"). */
function namedStatuses(text: string): { status: number; negated: boolean }[] {
  const out: { status: number; negated: boolean }[] = [];
  // not part of a longer number, a version, a parameter value (limit=200) or a page size
  for (const m of text.matchAll(
    /(?<![\w.=/-])([1-5][0-9]{2})(?![\w%/-]|\.[0-9]| (?:characters|entries|booked|transactions|days|digits|hours))/g,
  )) {
    const status = Number(m[1]);
    if (!HTTP_STATUSES.has(status)) continue;
    const before = text.slice(0, m.index);
    const after = text.slice(m.index + m[0].length);
    if (/size $/.test(before)) continue;
    // "a 201 payment response carries ...", "a 401 body": the status names the response a shape rule is about
    if (/^ (?:[\w-]+ ){0,2}(?:response|body|bodies)\b/.test(after)) continue;
    out.push({ status, negated: /\b(?:never|not|no)(?: [\w-]+)?(?:,? or)? $/.test(before) || /\bnever \d{3} or $/.test(before) });
  }
  return out;
}

const namesStatusClass = (text: string): boolean => /\b[1-5]xx\b/.test(text);

function namedCodes(text: string): string[] {
  return [...text.matchAll(/\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b/g)]
    .map((m) => m[0])
    .filter((code) => listCodes.has(code) || BERLIN_GROUP_ONLY_CODES.includes(code));
}

/**
 * Entries that name a status or a code without accepting any: each with the reason. Keep it short; a new
 * entry that names a status should normally say which statuses satisfy it.
 */
const NO_EXPECT: Readonly<Record<string, string>> = {
  'ERR-05': 'names SYSTEM_ERROR only as an example of an error body without message',
  'ERR-01': 'describes the error body, present whatever the status',
  'ERR-03': 'the body status equals the response status, whatever it is',
  'HDR-03': 'an invariant of every response, whatever its status',
  'FMT-01': 'an invariant of every response, whatever its status',
  'MSG-07': 'a shape rule about the bodies of the responses it names (201 and 401 alike), not a status rule',
  'EVT-08': 'names a 5xx status as the condition under which the parameter is required, not as an outcome',
};

describe('requirement catalogue: basis and level', () => {
  it('every basis is specification, berlin-group or interpretation', () => {
    for (const r of REQUIREMENTS) assert.ok(BASES.includes(r.basis), `${r.id}: basis ${r.basis}`);
  });

  it('no entry resting on interpretation is a MUST', () => {
    const offenders = live.filter((r) => r.basis === 'interpretation' && r.level === 'MUST').map((r) => r.id);
    assert.deepEqual(offenders, []);
  });

  it('every berlin-group entry names its source, and only those do', () => {
    for (const r of live) {
      if (r.basis === 'berlin-group') {
        assert.ok(typeof r.source === 'string' && r.source.trim().length > 20, `${r.id}: a berlin-group entry needs a precise source`);
        assert.match(r.source ?? '', /NextGenPSD2 XS2A 1\.3/, `${r.id}: the source names the Berlin Group document`);
      } else {
        assert.equal(r.source, undefined, `${r.id}: source given on a ${r.basis} entry`);
      }
    }
  });

  it('entries resting on Berlin Group shapes are marked so (spot checks)', () => {
    const shapes = [
      'AIS-11',
      'AIS-12',
      'AIS-13',
      'AIS-14',
      'AIS-15',
      'BSK-07',
      'PAY-44',
      'PAY-45',
      'PAY-46',
      'END-16',
      'END-23',
      'END-26',
      'END-27',
      'PAG-04',
    ];
    for (const id of shapes) assert.equal(byId(id).basis, 'berlin-group', id);
  });

  it('an entry that says it is not stated by the spec does not claim the spec as its basis', () => {
    for (const r of live) {
      if (/\b(?:not stated by the spec|not written in the spec)\b/i.test(r.interpretation ?? '')) {
        assert.notEqual(r.basis, 'specification', `${r.id} says the spec does not state it`);
      }
    }
  });

  it('the environments are the two the spec knows (no staging stands in for production)', () => {
    for (const r of live) assert.doesNotMatch(`${r.statement} ${r.interpretation ?? ''}`, /\bstaging\b/i, r.id);
  });
});

describe('requirement catalogue: expected statuses and codes', () => {
  it('every expect is non-empty, with statuses 100-599 and codes of the specification list', () => {
    for (const r of REQUIREMENTS) {
      if (r.expect === undefined) continue;
      const { status, codes } = r.expect;
      assert.ok(status !== undefined || codes !== undefined, `${r.id}: empty expect`);
      if (status !== undefined) {
        assert.ok(status.length > 0, `${r.id}: empty status list`);
        for (const s of status) assert.ok(Number.isInteger(s) && s >= 100 && s <= 599, `${r.id}: status ${s}`);
        assert.equal(new Set(status).size, status.length, `${r.id}: a status listed twice`);
      }
      if (codes !== undefined) {
        assert.ok(codes.length > 0, `${r.id}: empty code list`);
        for (const c of codes) assert.ok(listCodes.has(c), `${r.id}: code ${c} is not in the specification's list (ERR-43)`);
      }
    }
  });

  it('the status ranges are what they say', () => {
    assert.deepEqual([CLIENT_ERROR_STATUSES[0], CLIENT_ERROR_STATUSES.at(-1), CLIENT_ERROR_STATUSES.length], [400, 499, 100]);
    assert.deepEqual(
      [BELOW_SERVER_ERROR_STATUSES[0], BELOW_SERVER_ERROR_STATUSES.at(-1), BELOW_SERVER_ERROR_STATUSES.length],
      [100, 499, 400],
    );
  });

  it('every entry that names a status or a code says which satisfy it', () => {
    const missing: string[] = [];
    for (const r of live) {
      const text = `${r.statement} ${r.interpretation ?? ''}`;
      const names = namedStatuses(text).length > 0 || namesStatusClass(text) || namedCodes(text).length > 0;
      if (names && r.expect === undefined && !Object.hasOwn(NO_EXPECT, r.id)) missing.push(`${r.id}: ${r.statement}`);
    }
    assert.deepEqual(missing, []);
  });

  it('the exception list holds only entries that still need it', () => {
    for (const [id, reason] of Object.entries(NO_EXPECT)) {
      const r = byId(id);
      assert.ok(reason.length > 10, `${id}: give a reason`);
      assert.equal(r.expect, undefined, `${id} has an expect now; drop it from NO_EXPECT`);
    }
  });

  it('a status a statement names as the outcome is among the expected ones', () => {
    const wrong: string[] = [];
    for (const r of live) {
      for (const { status, negated } of namedStatuses(r.statement)) {
        if (negated || r.expect?.status === undefined) continue;
        if (!r.expect.status.includes(status)) wrong.push(`${r.id}: names ${status}, expects ${JSON.stringify(r.expect.status)}`);
      }
    }
    assert.deepEqual(wrong, []);
  });

  it('a negated status is never expected ("never 201", "not 401")', () => {
    for (const r of live) {
      for (const { status, negated } of namedStatuses(r.statement)) {
        if (negated) assert.ok(!(r.expect?.status ?? []).includes(status), `${r.id} says never ${status} but expects it`);
      }
    }
  });

  it('a list code a statement names is among the expected codes', () => {
    const wrong: string[] = [];
    for (const r of live) {
      if (Object.hasOwn(NO_EXPECT, r.id)) continue;
      for (const code of namedCodes(r.statement)) {
        if (!listCodes.has(code)) wrong.push(`${r.id}: names ${code}, which is not in the specification's list`);
        else if (!(r.expect?.codes ?? []).includes(code)) wrong.push(`${r.id}: names ${code} but does not expect it`);
      }
    }
    assert.deepEqual(wrong, []);
  });

  it('a code entry of an unmapped code is a SHOULD at most, never a MUST', () => {
    // codes the spec lists without a condition; only rules 1-8 and the basket statuses map codes
    const mappedBySpec = new Set(['RESOURCE_UNKNOWN', 'SYSTEM_ERROR', 'REFERENCE_MIX_INVALID', 'RESOURCE_BLOCKED']);
    for (const r of live.filter((x) => x.section.startsWith('Errors > Message codes > '))) {
      const code = r.section.slice('Errors > Message codes > '.length);
      if (mappedBySpec.has(code)) continue;
      assert.notEqual(r.level, 'MUST', `${r.id} (${code})`);
    }
  });

  it('the invariants checked on every exchange are the agreed ones', () => {
    const every = live
      .filter((r) => r.everyExchange)
      .map((r) => r.id)
      .sort();
    assert.deepEqual(every, ['ERR-01', 'ERR-02', 'ERR-03', 'ERR-04', 'ERR-05', 'ERR-43', 'ERR-44', 'ERR-45', 'FMT-01', 'HDR-03']);
  });
});

describe('requirement catalogue: testability', () => {
  it('every capability is described', () => {
    for (const [capability, description] of Object.entries(CAPABILITIES)) assert.ok(description.length > 30, capability);
  });

  it('what only production shows is not automated against another environment', () => {
    for (const id of ['ADR-10', 'ADR-11']) assert.ok(byId(id).testedBy.startsWith('manual:'), id);
    for (const id of ['SIG-02', 'SIG-08', 'SIG-09']) assert.equal(byId(id).testedBy, 'needs-capability:test-ca-trusted', id);
    assert.equal(byId('SIG-10').testedBy, 'needs-capability:tpp-register', 'registration: a register the target lets the tester change');
  });

  it('rules the suite cannot provoke without target help name the help', () => {
    for (const id of ['SCA-18', 'SCA-19']) assert.equal(byId(id).testedBy, 'needs-capability:consent-selection', id);
    for (const id of ['BSK-04', 'BSK-05', 'BSK-14']) assert.equal(byId(id).testedBy, 'needs-capability:clock-control', id);
    for (const id of ['LIM-05', 'END-25']) assert.equal(byId(id).testedBy, 'needs-capability:sandbox-mock-data', id);
    assert.ok(byId('ERR-07').testedBy.startsWith('manual:'), 'RESOURCE_BLOCKED cannot be provoked');
  });
});

describe('requirement catalogue: the readings the specification leaves open both pass', () => {
  it('minor units: exactly is accepted, fewer may go either way, more is refused', () => {
    assert.deepEqual(byId('PAY-08').expect, { status: [201] });
    assert.match(byId('PAY-08').statement, /"10\.00"/);
    assert.deepEqual([...(byId('PAY-47').expect?.status ?? [])].sort(), [201, 400]);
    assert.equal(byId('PAY-47').level, 'MAY');
    assert.deepEqual(byId('PAY-07').expect, { status: [400] });
  });

  it('Address.city may be accepted or refused', () => {
    const city = byId('PAY-23');
    assert.deepEqual([...(city.expect?.status ?? [])].sort(), [201, 400]);
    assert.notEqual(city.level, 'MUST');
  });

  it('REFERENCE_MIX_INVALID passes at basket creation or at the start of its authorisation', () => {
    assert.match(byId('BSK-12').statement, /creation/);
    assert.match(byId('BSK-12').statement, /authorisation/);
    for (const id of ['BSK-12', 'ERR-34', 'ERR-41']) assert.deepEqual(byId(id).expect?.codes, ['REFERENCE_MIX_INVALID'], id);
  });

  it('no status code is invented for held payments, and the basket worst case has no MUST ranking', () => {
    const held = byId('STA-07');
    assert.notEqual(held.level, 'MUST');
    assert.equal(held.expect, undefined);
    assert.doesNotMatch(held.statement, /PDNG/);
    assert.equal(byId('BSK-05').level, 'MUST');
    // BSK-05 names RJCT only as what a payment lacking funds means (BSK-15), never as a rank.
    assert.doesNotMatch(byId('BSK-05').statement, /CANC|rank/);
    assert.equal(byId('BSK-14').level, 'SHOULD');
    assert.equal(byId('BSK-14').basis, 'interpretation');
  });

  it('payment amounts: sign and zero are a SHOULD, the written form rests on Berlin Group', () => {
    assert.equal(byId('PAY-09').basis, 'berlin-group');
    assert.doesNotMatch(byId('PAY-09').statement, /zero|positive/);
    assert.equal(byId('PAY-48').level, 'SHOULD');
  });

  it('no check digits are demanded of a mocked identity, and a lower-case serial may be refused', () => {
    assert.doesNotMatch(byId('HDR-17').statement, /mod-11|check digit/);
    assert.deepEqual(byId('HDR-17').expect, { status: CLIENT_ERROR_STATUSES });
    assert.equal(byId('SIG-19').level, 'MAY');
  });

  it('no product name or meaning of "instant" is invented; endToEndIdentification types are not guessed', () => {
    for (const id of ['VER-25', 'VER-26']) {
      const r = byId(id);
      assert.notEqual(r.level, 'MUST', id);
      assert.doesNotMatch(`${r.statement} ${r.interpretation ?? ''}`, /payment-to-self|ACSC/, id);
    }
    assert.doesNotMatch(byId('PAY-46').interpretation ?? '', /payment-to-self/);
  });

  it('bookingStatus: both, pending and booked are accepted, all either way, an unknown value is a SHOULD, no default is invented', () => {
    assert.equal(byId('END-29').level, 'MUST');
    assert.match(byId('END-29').statement, /both and pending/);
    assert.equal(byId('END-14').level, 'MAY', '"all" is only mentioned and is no Berlin Group value');
    assert.deepEqual([...(byId('END-14').expect?.status ?? [])].sort(), [200, 400]);
    assert.equal(byId('END-27').basis, 'berlin-group');
    assert.equal(byId('END-28').level, 'SHOULD');
    assert.deepEqual(byId('END-28').expect, { status: [400] });
    assert.doesNotMatch(byId('END-15').statement, /default/);
  });

  it('Link verbs have no invented minimum, and Berlin Group shaped links need no verbs', () => {
    assert.doesNotMatch(byId('MSG-06').statement, /non-empty/);
    assert.equal(byId('MSG-09').level, 'SHOULD');
  });
});

/**
 * The 13 entries an audit against the specification and Berlin Group found stronger than their source
 * (issue [latitude]), and ERR-07: each keeps its honest level, or the narrower statement its source bears,
 * and names the readings it lets pass.
 */
describe('requirement catalogue: entries that over-reached keep their honest level', () => {
  const levelled: Readonly<Record<string, string>> = {
    'ERR-43': 'SHOULD', // the list is headed "in tppMessages"; an error body's code is only "error code"
    'SBX-05': 'SHOULD', // the customer payload is not shown
    'SBX-06': 'SHOULD', // mock-data paths and payloads are not shown
    'SBX-07': 'SHOULD',
    'SBX-08': 'SHOULD',
    'END-14': 'MAY', // bookingStatus=all is only mentioned
    'END-21': 'SHOULD', // method and body of bank-offered consents are not shown
    'SIG-20': 'SHOULD', // a relabelled but valid RSA-SHA256 signature
    'ERR-07': 'INFO', // nothing defines "blocked"
  };

  it('each has its level, and none rests on the project alone as a MUST', () => {
    for (const [id, level] of Object.entries(levelled)) {
      const r = byId(id);
      assert.equal(r.level, level, id);
      assert.ok((r.interpretation ?? '').length > 80, `${id} says which readings pass and why`);
    }
  });

  it('the MUSTs kept are narrowed to what the text bears, and name the other reading', () => {
    assert.match(byId('MSG-07').statement, /payment initiation response and in the basket authorisation response/);
    assert.doesNotMatch(byId('MSG-07').statement, /a 401 body with scaRedirect/);
    for (const id of ['SCA-17', 'ERR-38']) {
      assert.match(byId(id).statement, /payment initiation/, id);
    }
    assert.match(byId('SCA-17').interpretation ?? '', /both readings pass/);
    assert.match(byId('ERR-42').statement, /RJCT/);
    assert.match(byId('ERR-42').interpretation ?? '', /two literal readings/);
    assert.doesNotMatch(byId('VER-01').statement, /without/);
    assert.match(byId('VER-01').interpretation ?? '', /alias/);
  });

  it('rules of the payment request judge the payment request, not what the bank reports', () => {
    assert.match(byId('PAY-07').interpretation ?? '', /not held to it/);
    assert.match(byId('FMT-09').interpretation ?? '', /not applied to what the bank reports/);
    assert.equal(byId('PAY-53').basis, 'berlin-group');
  });

  it('no MUST rests on neither the specification nor the Berlin Group', () => {
    const offenders = REQUIREMENTS.filter((r) => !r.retired && r.level === 'MUST' && r.basis === 'interpretation').map((r) => r.id);
    assert.deepEqual(offenders, []);
  });
});

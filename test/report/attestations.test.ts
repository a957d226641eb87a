import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { applyAttestations, parseAttestations } from '../../lib/report/attestations.js';
import type { RequirementRecord } from '../../lib/report/results-types.js';
import { ConfigError } from '../../lib/targets/config-error.js';

const TODAY = new Date('2026-11-25T12:00:00Z');
const entry = (fields: string) =>
  `attestations:\n  - { requirement: SCA-23, verdict: PASS, reviewer: Kari Nordmann, date: 2026-11-20, evidence: QA-1432${fields} }\n`;

describe('attestations file', () => {
  test('a good file is read whole', () => {
    const [attestation] = parseAttestations(entry(', note: on the release candidate'), 'a.yaml', TODAY);
    assert.deepEqual(attestation, {
      requirement: 'SCA-23',
      verdict: 'PASS',
      reviewer: 'Kari Nordmann',
      date: '2026-11-20',
      evidence: 'QA-1432',
      note: 'on the release candidate',
    });
  });

  const rejects = (text: string, message: RegExp) =>
    assert.throws(
      () => parseAttestations(text, 'a.yaml', TODAY),
      (error: unknown) => error instanceof ConfigError && message.test(error.message),
    );

  test('a broken entry is a configuration error naming the entry and field', () => {
    rejects(
      'attestations:\n  - { requirement: SCA-23, verdict: PASS, date: 2026-11-20, evidence: x }\n',
      /^a\.yaml: attestations\[0\]: must have required property 'reviewer'/,
    );
    rejects(entry(', colour: red'), /attestations\[0\]: unknown field "colour"/);
    rejects(entry('').replace('PASS', 'MAYBE'), /attestations\[0\]\.verdict: must be equal to one of the allowed values/);
  });

  test('only a requirement no scenario can judge can be attested, once, on a day that has been', () => {
    rejects(entry('').replace('SCA-23', 'SIG-04'), /attestations\[0\]\.requirement: SIG-04 is judged by the suite's scenarios/);
    rejects(entry('').replace('SCA-23', 'XYZ-99'), /XYZ-99 is not in the requirement catalogue/);
    rejects(entry('') + entry('').replace('attestations:\n', ''), /attestations\[1\]\.requirement: SCA-23 is attested twice/);
    rejects(entry('').replace('2026-11-20', '2026-12-20'), /attestations\[0\]\.date: 2026-12-20 is in the future/);
  });
});

describe('applying attestations', () => {
  const record = (id: string, status: RequirementRecord['status'], level = 'MUST'): RequirementRecord => ({
    id,
    area: id.slice(0, 3),
    level,
    section: 's',
    statement: 's',
    testedBy: 'manual:x',
    basis: 'specification',
    fillsGap: false,
    status,
    tests: [],
  });
  const attestation = (requirement: string, verdict: 'PASS' | 'FAIL') => ({
    requirement,
    verdict,
    reviewer: 'Ola',
    date: '2026-11-20',
    evidence: 'doc 7',
  });

  test('PASS makes it ATTESTED, FAIL a FAIL (WARNING below MUST), both with the reviewer', () => {
    const [attested, failed, warned] = applyAttestations(
      [record('ADR-10', 'MANUAL'), record('SCA-23', 'NOT_COVERED'), record('SIG-30', 'MANUAL', 'SHOULD')],
      [attestation('ADR-10', 'PASS'), attestation('SCA-23', 'FAIL'), attestation('SIG-30', 'FAIL')],
    );
    assert.equal(attested?.status, 'ATTESTED');
    assert.match(attested?.reason ?? '', /attested by Ola on 2026-11-20 \(evidence: doc 7\)/);
    assert.equal(failed?.status, 'FAIL');
    assert.match(failed?.reason ?? '', /^failed, attested by Ola/);
    assert.equal(warned?.status, 'WARNING');
  });

  test('an attestation never overrides what a scenario of the run judged', () => {
    const [judged] = applyAttestations([record('SIG-10', 'FAIL')], [attestation('SIG-10', 'PASS')]);
    assert.equal(judged?.status, 'FAIL');
    assert.equal(judged?.attestation?.reviewer, 'Ola');
  });
});

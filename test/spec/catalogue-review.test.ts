/**
 * The audit of issue 38, recorded beside each entry (Requirement.review): every finding decided, each answer
 * honest about itself (a lowered entry is no MUST, a kept one quotes its sentence, a variant exists in the
 * reference bank), and docs/catalogue-review.md the same table. `UPDATE_CATALOGUE_REVIEW=1` writes the file
 * from the catalogue.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { REQUIREMENTS, requirementById } from '../../lib/spec/requirements.js';
import {
  REVIEW_ANSWERS,
  REVIEW_FINDINGS,
  type Requirement,
  type Review,
  type ReviewAnswer,
  type ReviewFinding,
} from '../../lib/spec/requirements/requirement-types.js';
import { knownVariants } from '../../reference/server.js';

const DOC = new URL('../../docs/catalogue-review.md', import.meta.url);
const reviewed = REQUIREMENTS.flatMap((requirement) => (requirement.review ?? []).map((review) => ({ requirement, review })));

/** A table cell: one line, its pipes escaped. */
const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\s+/g, ' ').trim();

function countTable(): string[] {
  const findings = Object.keys(REVIEW_FINDINGS) as ReviewFinding[];
  const count = (finding: ReviewFinding, answer?: ReviewAnswer) =>
    reviewed.filter(({ review }) => review.finding === finding && (answer === undefined || review.answer === answer)).length;
  return [
    `| finding | ${REVIEW_ANSWERS.join(' | ')} | all |`,
    `| --- | ${REVIEW_ANSWERS.map(() => '---:').join(' | ')} | ---: |`,
    ...findings.map(
      (finding) =>
        `| ${finding}: ${REVIEW_FINDINGS[finding]} | ${REVIEW_ANSWERS.map((answer) => count(finding, answer)).join(' | ')} | ${count(finding)} |`,
    ),
  ];
}

function row(requirement: Requirement, review: Review): string {
  const answer = review.variants === undefined ? review.answer : `${review.answer}: ${review.variants.join(', ')}`;
  return `| ${requirement.id} (${requirement.level}) | ${cell(`${review.finding}: ${review.what}`)} | ${cell(answer)} | ${cell(review.reason)} |`;
}

/** docs/catalogue-review.md as the catalogue has it. */
function rendered(): string {
  const variantNames = new Set(reviewed.flatMap(({ review }) => review.variants ?? []));
  const variants = knownVariants().filter((v) => variantNames.has(v.name));
  return [
    '# The catalogue reviewed against its sources (issue 38)',
    '',
    'An audit of the requirement catalogue and the scenarios against the specification and Berlin Group 1.3.8 found',
    'MUST entries that say more than the text, refusals the text does not state, checks stricter than the text, and',
    'entries allowing what others fail. Each finding is decided, and recorded beside its entry as `review`',
    '(`npx xs2a-conformance requirements --json`): **relaxed** to what the text says, **lowered** (SHOULD, MAY),',
    'the other reading made a **variant** of the reference bank that the whole suite passes, or **kept** with the',
    'sentence that makes it a MUST. This file is generated from the catalogue and kept equal to it by',
    '`test/spec/catalogue-review.test.ts` (`UPDATE_CATALOGUE_REVIEW=1` writes it).',
    '',
    '## Counts',
    '',
    ...countTable(),
    '',
    '## Findings, entry by entry',
    '',
    '| entry (level now) | finding | answer | sentence, or what the text says instead |',
    '| --- | --- | --- | --- |',
    ...reviewed.map(({ requirement, review }) => row(requirement, review)),
    '',
    '## The variants these answers name',
    '',
    '| variant | what the bank does | allowed by | source |',
    '| --- | --- | --- | --- |',
    ...variants.map((v) => `| ${v.name} | ${cell(v.description)} | ${cell(v.allowedBy)} | ${cell(v.source)} |`),
    '',
  ].join('\n');
}

describe('the catalogue review (issue 38)', () => {
  it('every review names its finding and answer, and says why', () => {
    for (const { requirement, review } of reviewed) {
      assert.ok(Object.hasOwn(REVIEW_FINDINGS, review.finding), `${requirement.id}: finding ${review.finding}`);
      assert.ok(REVIEW_ANSWERS.includes(review.answer), `${requirement.id}: answer ${review.answer}`);
      assert.ok(review.what.length > 5, `${requirement.id}: what was found`);
      assert.ok(review.reason.length > 40, `${requirement.id}: why`);
    }
  });

  it('a kept MUST quotes the sentence that makes it one', () => {
    for (const { requirement, review } of reviewed.filter(({ review }) => review.answer === 'kept')) {
      assert.match(review.reason, /"[^"]{10,}"/, `${requirement.id}: no sentence quoted`);
    }
  });

  it('a lowered finding leaves no MUST', () => {
    for (const { requirement } of reviewed.filter(({ review }) => review.answer === 'lowered')) {
      assert.notEqual(requirement.level, 'MUST', `${requirement.id} is lowered but still MUST`);
    }
  });

  it('every variant an answer names is one the reference bank declares, with the sentence that allows it', () => {
    const declared = new Map(knownVariants().map((v) => [v.name, v]));
    for (const { requirement, review } of reviewed) {
      assert.equal(
        review.answer === 'variant',
        review.variants !== undefined && review.variants.length > 0,
        `${requirement.id}: variants go with the answer variant`,
      );
      for (const name of review.variants ?? []) assert.ok(declared.get(name)?.allowedBy, `${requirement.id}: no variant ${name}`);
    }
  });

  it('the findings the audit named are each decided', () => {
    const decided = (id: string, finding: ReviewFinding) =>
      assert.ok(
        requirementById(id)?.review?.some((r) => r.finding === finding),
        `${id}: no ${finding} finding decided`,
      );
    for (const id of [
      'FMT-08',
      'HDR-08',
      'PAY-08',
      'PAY-32',
      'LIM-13',
      'PAY-45',
      'PSU-02',
      'GEN-15',
      'SBX-09',
      'BSK-11',
      'BSK-05',
      'TPP-43',
      'TPP-44',
      'EVT-11',
    ])
      decided(id, 'beyond-text');
    for (const id of [
      'ERR-01',
      'ERR-14',
      'ERR-44',
      'SCA-04',
      'AIS-01',
      'PAY-44',
      'PAY-08',
      'FMT-12',
      'FMT-10',
      'STA-06',
      'PAY-45',
      'BSK-07',
      'PAY-18',
      'AIS-11',
      'SES-04',
      'SES-05',
      'PSU-10',
      'LIM-02',
    ])
      decided(id, 'assertion');
    for (const id of ['SCA-09', 'HDR-20', 'ERR-23', 'ERR-32']) decided(id, 'contradiction');
    for (const id of ['HDR-01', 'HDR-05', 'HDR-19', 'HDR-29']) assert.equal(requirementById(id)?.level, 'SHOULD', id);
  });

  it('each reading of the SCA session table is a variant', () => {
    const names = knownVariants().map((v) => v.name);
    for (const name of ['session-governs-sca-prompts-only', 'unknown-session-asks-for-sca', 'invalidated-session-served-from-consent'])
      assert.ok(names.includes(name), name);
  });

  it('docs/catalogue-review.md is the table of the catalogue', () => {
    if (process.env.UPDATE_CATALOGUE_REVIEW) writeFileSync(DOC, rendered());
    assert.equal(
      readFileSync(DOC, 'utf8'),
      rendered(),
      'docs/catalogue-review.md differs from the catalogue: UPDATE_CATALOGUE_REVIEW=1 node --import tsx --test test/spec/catalogue-review.test.ts',
    );
  });
});

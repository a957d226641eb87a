/**
 * A conformance test that cannot fail is a defect: every suite test must carry requirement ids and be made
 * to FAIL by at least one fault of the gauntlet, and every gauntlet case must name tests that exist.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { listSuiteTests } from '../../lib/spec/coverage.js';
import { KNOWN_FAULTS } from '../../reference/faults.js';
import { GAUNTLET } from './faults.js';

describe('gauntlet coverage', async () => {
  const listing = await listSuiteTests();

  test('the suites are listed', () => {
    assert.equal(listing.status, 'ok', listing.note);
    assert.ok(listing.specs.length > 0);
  });

  test('every suite test names the requirements it checks', () => {
    const untagged = listing.specs.filter((spec) => spec.ids.length === 0).map((spec) => spec.title);
    assert.deepEqual(untagged, []);
  });

  test('every suite test is made to fail by at least one fault', () => {
    const neverFailed = listing.specs
      .map((spec) => spec.title)
      .filter((title) => !GAUNTLET.some((c) => c.mustFail.some((expected) => title.includes(expected))));
    assert.deepEqual(neverFailed, [], 'suite tests no fault of the reference bank makes fail');
  });

  test('every gauntlet case names existing tests and a known fault', () => {
    for (const { fault, mustFail } of GAUNTLET) {
      assert.ok(Object.hasOwn(KNOWN_FAULTS, fault), `unknown fault ${fault}`);
      for (const expected of mustFail) {
        assert.ok(listing.specs.some((spec) => spec.title.includes(expected)), `${fault}: no test titled "${expected}"`);
      }
    }
  });
});

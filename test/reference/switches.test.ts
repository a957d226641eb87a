// The bank's behaviour switches (reference/switches.ts): faults and variants, one mechanism, per TPP.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { knownFaults, knownVariants } from '../../reference/server.js';
import {
  BehaviourSwitches,
  excludeEachOther,
  nearestSwitch,
  UnknownSwitchError,
  type Fault,
  type Variant,
} from '../../reference/switches.js';

const fault: Fault = { kind: 'fault', name: 'signature-check-off' };
const variant: Variant = { kind: 'variant', name: 'berlin-group-error-codes' };

describe('behaviour switches', () => {
  test('a switch named with TPPs is on for those TPPs only; one without, for everyone', () => {
    const switches = new BehaviourSwitches({ faults: [{ name: fault.name, tpps: ['PSDNO-FSA-A'] }], variants: [variant.name] });
    assert.equal(switches.forTpp('PSDNO-FSA-A').breaks(fault), true);
    assert.equal(switches.forTpp('PSDNO-FSA-B').breaks(fault), false);
    assert.equal(switches.forTpp(undefined).breaks(fault), false);
    for (const tpp of ['PSDNO-FSA-A', 'PSDNO-FSA-B', undefined]) assert.equal(switches.forTpp(tpp).reads(variant), true);
    assert.equal(switches.wholeBank.reads(variant), true);
    assert.deepEqual(switches.faultNames, [fault.name]);
    assert.deepEqual(switches.variantNames, [variant.name]);
  });

  test('the default bank has every switch off', () => {
    const switches = new BehaviourSwitches().forTpp('PSDNO-FSA-A');
    assert.ok(knownFaults().every(({ name }) => !switches.breaks({ kind: 'fault', name })));
    assert.ok(knownVariants().every(({ name }) => !switches.reads({ kind: 'variant', name })));
  });

  test('a name is a switch of its own kind only, and an unknown one suggests the nearest', () => {
    assert.throws(
      () => new BehaviourSwitches({ variants: [fault.name] }),
      (error: Error) => error instanceof UnknownSwitchError && error.kind === 'variant',
    );
    assert.equal(nearestSwitch('fault', 'signatur-check-off'), 'signature-check-off');
    assert.equal(nearestSwitch('variant', 'berlin-group-error-code'), 'berlin-group-error-codes');
    assert.equal(nearestSwitch('fault', 'completely-different-words'), undefined);
  });

  test('every variant says what allows it, and excludes only declared variants', () => {
    const names = new Set(knownVariants().map((v) => v.name));
    for (const v of knownVariants()) {
      assert.ok(v.allowedBy.length > 20, `${v.name}: allowedBy`);
      assert.ok(v.source.length > 5, `${v.name}: source`);
      for (const other of v.excludes) {
        assert.ok(names.has(other), `${v.name} excludes ${other}, which is no variant`);
        assert.ok(excludeEachOther(other, v.name));
      }
    }
  });

  test('no name is both a fault and a variant, and every fault names what it breaks', () => {
    const faults = new Set(knownFaults().map((f) => f.name));
    assert.deepEqual(
      knownVariants().filter((v) => faults.has(v.name)),
      [],
    );
    assert.ok(knownFaults().every((f) => f.breaks.length > 0));
  });

  test('domain state knows nothing of switches: reference/state never consults one', () => {
    const dir = join(import.meta.dirname, '../../reference/state');
    const offending = readdirSync(dir)
      .filter((file) => /switches\.js|\.breaks\(|\.reads\(|defineFault|defineVariant/.test(readFileSync(join(dir, file), 'utf8')))
      .sort();
    assert.deepEqual(offending, []);
  });
});

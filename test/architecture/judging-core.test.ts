/**
 * The judging core, lib/judge (checks, invariants, the response readers, the Digest reading), is what every
 * judge shares: the scenarios' fixtures (lib/fixtures) and the traffic judging (lib/traffic: an audit of a HAR,
 * the bank's own judge) import it, and it imports none of them, nor Playwright's test runner, so that judging
 * recorded traffic needs no test run. The arrows point into lib/judge, never out of it to its users.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { edges, loadedBy, sources, type Edge } from './import-graph.js';

const EDGES = edges();
const offending = (predicate: (edge: Edge) => boolean) => EDGES.filter(predicate).map((e) => `${e.file} -> ${e.to}`);

/** The units that judge with the core, and so may never be imported by it. */
const USERS = ['lib/fixtures', 'lib/traffic', 'lib/tpp-judge', 'lib/cli'];

/** Playwright's test runner, under any of the names it is published as. */
const isPlaywright = (unit: string) => /^package (?:@playwright\/|playwright(?:$|\/))/.test(unit);

describe('the judging core (lib/judge)', () => {
  test('the graph was read: lib/judge has its files, and the fixtures and the traffic judging import it', () => {
    assert.ok(sources('lib/judge').length >= 4, 'lib/judge holds the checks, the invariants and the readers');
    assert.ok(EDGES.some((e) => e.from === 'lib/fixtures' && e.to === 'lib/judge'));
    assert.ok(EDGES.some((e) => e.from === 'lib/traffic' && e.to === 'lib/judge'));
  });

  test('imports nothing from lib/fixtures, lib/traffic, lib/tpp-judge or lib/cli', () => {
    assert.deepEqual(
      offending((e) => e.from === 'lib/judge' && USERS.includes(e.to)),
      [],
    );
  });

  test('loads no Playwright test runner, not even through what it imports (an audit of a HAR judges without one)', () => {
    const { files, packages } = loadedBy(sources('lib/judge'));
    assert.ok(files.has('lib/validate/index.ts') && packages.has('package ajv-formats'), 'what it loads was followed');
    assert.deepEqual(
      [...packages].filter(([name]) => isPlaywright(name)).map(([name, file]) => `${file} -> ${name}`),
      [],
    );
    assert.deepEqual(
      [...files].filter((file) => USERS.some((unit) => file.startsWith(`${unit}/`))),
      [],
    );
  });

  test('the traffic judging takes the checks and invariants from lib/judge, never from the Playwright fixtures', () => {
    assert.deepEqual(
      offending((e) => (e.from === 'lib/traffic' || e.from === 'lib/tpp-judge') && e.to === 'lib/fixtures'),
      [],
    );
  });
});

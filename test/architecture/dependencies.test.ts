/**
 * The dependency rules of the project, enforced: suites talk to targets only through lib/fixtures (and read
 * lib/spec data); the reference bank never sees the suite's fixtures or reports; nothing depends on the
 * suites or the project's own tests; and no two folders depend on each other in a circle. Inside the
 * reference bank, its layers (reference/README.md, Layout): route and hook plugins never import each
 * other, services never import plugins, and the state knows nothing of requests, services or switches.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, test } from 'node:test';
import { PACKAGE_ROOT } from '../../lib/cli/package-root.js';
import { edges, sources, type Edge } from './import-graph.js';

const EDGES = edges();
const offending = (predicate: (edge: Edge) => boolean) => EDGES.filter(predicate).map((e) => `${e.file} -> ${e.to}`);

describe('dependency rules', () => {
  test('the graph was read (the rule is not checking nothing)', () => {
    assert.ok(EDGES.some((e) => e.from === 'suites' && e.to === 'lib/fixtures'));
    assert.ok(EDGES.some((e) => e.from === 'reference' && e.to === 'lib/httpsig'));
  });

  test('suites import only lib/fixtures and lib/spec (no packages, no other lib folder, never the reference bank)', () => {
    assert.deepEqual(
      offending((e) => e.from === 'suites' && e.to !== 'lib/fixtures' && e.to !== 'lib/spec'),
      [],
    );
  });

  test('the reference bank never imports lib/fixtures, lib/report or the suites', () => {
    assert.deepEqual(
      offending((e) => e.from === 'reference' && ['lib/fixtures', 'lib/report', 'suites'].includes(e.to)),
      [],
    );
  });

  test('only lib/cli starts the reference bank', () => {
    assert.deepEqual(
      offending((e) => e.to === 'reference' && e.from !== 'lib/cli'),
      [],
    );
  });

  test("nothing imports the suites or the project's tests", () => {
    assert.deepEqual(
      offending((e) => e.to === 'suites' || e.to === 'test'),
      [],
    );
  });

  test('lib/spec depends on nothing (lib/validate depends on it, never the reverse)', () => {
    assert.deepEqual(
      offending((e) => e.from === 'lib/spec'),
      [],
    );
  });

  test('lib/spec is data: it imports no node: module (listing the suites with Playwright is lib/cli/suite-listing.ts)', () => {
    const io = sources('lib/spec').filter((file) => /from\s*'node:/.test(readFileSync(join(PACKAGE_ROOT, file), 'utf8')));
    assert.deepEqual(io, []);
  });

  test('no cycle between units', () => {
    const next = new Map<string, Set<string>>();
    for (const { from, to } of EDGES) next.set(from, new Set([...(next.get(from) ?? []), to]));
    const cycles: string[] = [];
    const visit = (unit: string, path: string[]): void => {
      if (path.includes(unit)) {
        cycles.push([...path.slice(path.indexOf(unit)), unit].join(' -> '));
        return;
      }
      for (const to of next.get(unit) ?? []) visit(to, [...path, unit]);
    };
    for (const unit of next.keys()) visit(unit, []);
    assert.deepEqual([...new Set(cycles)], []);
  });
});

describe('the clean-room bank', () => {
  test('imports nothing of the project and no package: node built-ins and its own files only', () => {
    const files = sources('test/clean-room-bank');
    assert.ok(files.length > 10, 'its files were read');
    const foreign = files.flatMap((file) => {
      const text = readFileSync(join(PACKAGE_ROOT, file), 'utf8');
      return [...text.matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)]
        .map((match) => match[1] ?? '')
        .filter((target) =>
          target.startsWith('.')
            ? !resolve(PACKAGE_ROOT, dirname(file), target).startsWith(join(PACKAGE_ROOT, 'test', 'clean-room-bank'))
            : !target.startsWith('node:'),
        )
        .map((target) => `${file} -> ${target}`);
    });
    assert.deepEqual(foreign, []);
  });
});

/** Imports between files of the reference bank (relative paths from the repository root), static and dynamic. */
function bankImports(): Edge[] {
  const out: Edge[] = [];
  for (const file of sources('reference')) {
    const text = readFileSync(join(PACKAGE_ROOT, file), 'utf8');
    for (const match of text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)) {
      const target = relative(PACKAGE_ROOT, resolve(PACKAGE_ROOT, dirname(file), match[1] ?? '')).replace(/\.js$/, '.ts');
      if (target.startsWith('reference/')) out.push({ from: file, to: target, file });
    }
    for (const match of text.matchAll(/^import\s[^;]*?\sfrom\s*'([^.'][^']*)'/gm))
      out.push({ from: file, to: `package ${match[1]}`, file });
  }
  return out;
}

/** The layer of a file of the reference bank: its folder, or the file itself at the top (app.ts, switches.ts, …). */
function layerOf(file: string): string {
  const [, folder, rest] = file.split('/');
  return rest === undefined ? (folder ?? file) : `${folder}/`;
}

/** The foundations every layer may use: the switches, the error body, serialisation, identifiers. */
const FOUNDATIONS = ['switches.ts', 'bank-errors.ts', 'serialisation.ts', 'ids.ts'];

const BANK = bankImports();
const bankOffending = (predicate: (from: string, to: string) => boolean) =>
  BANK.filter((e) => predicate(layerOf(e.from), e.to.startsWith('package ') ? e.to : layerOf(e.to))).map((e) => `${e.from} -> ${e.to}`);

describe("the reference bank's layers", () => {
  test('the graph was read (each rule below has imports to judge)', () => {
    const layers = new Set(BANK.map((e) => `${layerOf(e.from)} -> ${e.to.startsWith('package ') ? 'package' : layerOf(e.to)}`));
    for (const edge of [
      'plugins/ -> services/',
      'plugins/ -> state/',
      'plugins/ -> http/',
      'services/ -> state/',
      'services/ -> services/',
      'app.ts -> plugins/',
      'state/ -> state/',
      'sca-pages/ -> sca-pages/',
    ]) {
      assert.ok(layers.has(edge), edge);
    }
  });

  test('no plugin imports another plugin (shared logic lives in services/, shared request reading in http/)', () => {
    assert.deepEqual(
      bankOffending((from, to) => from === 'plugins/' && to === 'plugins/'),
      [],
    );
  });

  test("plugins are imported only by the frame (app.ts registers them; server.ts takes the judge's type)", () => {
    assert.deepEqual(
      bankOffending((from, to) => to === 'plugins/' && from !== 'plugins/' && from !== 'app.ts' && from !== 'server.ts'),
      [],
    );
  });

  test('services import no plugin and no SCA page', () => {
    assert.deepEqual(
      bankOffending((from, to) => from === 'services/' && (to === 'plugins/' || to === 'sca-pages/')),
      [],
    );
  });

  test('the route helpers (http/) import no plugin, service or SCA page', () => {
    assert.deepEqual(
      bankOffending((from, to) => from === 'http/' && ['plugins/', 'services/', 'sca-pages/'].includes(to)),
      [],
    );
  });

  test('the state imports only the state and the foundations: no fastify, no switch, no request', () => {
    const allowed = (to: string) =>
      to.startsWith('package ') ? to !== 'package fastify' : to === 'state/' || (FOUNDATIONS.includes(to) && to !== 'switches.ts');
    assert.deepEqual(
      bankOffending((from, to) => from === 'state/' && !allowed(to)),
      [],
    );
  });

  test('the SCA pages hold no rule of the bank: they declare no switch and take only types from services and state', () => {
    const pages = sources('reference').filter((file) => layerOf(file) === 'sca-pages/');
    assert.ok(pages.length > 0);
    const offenders = pages.filter((file) => {
      const text = readFileSync(join(PACKAGE_ROOT, file), 'utf8');
      return /define(?:Fault|Variant)\(/.test(text) || /^import \{[^}]*\} from '\.\.\/(?:services|state)\//m.test(text);
    });
    assert.deepEqual(offenders, []);
  });

  test('the foundations import only each other', () => {
    assert.deepEqual(
      bankOffending((from, to) => FOUNDATIONS.includes(from) && !to.startsWith('package ') && !FOUNDATIONS.includes(to)),
      [],
    );
  });
});

/**
 * One error base for lib/ (lib/errors.ts): every error class of lib/ extends ConformanceError, never Error or
 * another built-in error itself, and carries a code of the catalogue that names it; no code is carried by two
 * classes, and no code of the catalogue is left without its class. Read from the sources, as the other
 * architecture rules are: a class is found whether or not a test happens to import its module.
 */
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { PACKAGE_ROOT } from '../../lib/cli/package-root.js';
import { ERRORS } from '../../lib/errors.js';

const BASE_MODULE = join('lib', 'errors.ts');
const BUILT_IN_ERRORS = ['Error', 'TypeError', 'RangeError', 'SyntaxError', 'ReferenceError', 'EvalError', 'URIError', 'AggregateError'];

interface ErrorClass {
  file: string;
  name: string;
  /** The code its body declares (`readonly code = 'XC_ERR_…'`). */
  code: string | undefined;
}

const SOURCES = readdirSync(join(PACKAGE_ROOT, 'lib'), { recursive: true, encoding: 'utf8' })
  .filter((file) => /\.(ts|js)$/.test(file))
  .map((file) => ({ file: join('lib', file), text: readFileSync(join(PACKAGE_ROOT, 'lib', file), 'utf8') }));

/** Every class of lib/ that extends another, anywhere in a file (a class expression has no name). */
const CLASSES = SOURCES.flatMap(({ file, text }) =>
  [...text.matchAll(/\bclass(?:\s+(\w+))?\s+extends\s+([\w.]+)/g)].map(([, name = '(a class expression)', parent = '']) => ({
    file,
    name,
    parent,
  })),
);

/** The classes of lib/ declared at the top of a file that extend the base, with the code each body declares. */
const ERROR_CLASSES: ErrorClass[] = SOURCES.flatMap(({ file, text }) =>
  [...text.matchAll(/^(?:export )?class (\w+) extends ConformanceError \{(\}|[\s\S]*?^\})/gm)].map(([, name = '', body = '']) => ({
    file,
    name,
    code: /^\s+(?:override )?readonly code = '(\w+)'/m.exec(body)?.[1],
  })),
);

describe('one error base for lib/', () => {
  test('the classes were read (the rules below are not checking nothing)', () => {
    assert.ok(ERROR_CLASSES.length >= 20, `${ERROR_CLASSES.length} error classes found`);
    assert.ok(ERROR_CLASSES.some((c) => c.name === 'DerError' && c.code === 'XC_ERR_DER'));
    assert.equal(
      CLASSES.filter((c) => c.parent === 'ConformanceError').length,
      ERROR_CLASSES.length,
      'every class extending the base is declared at the top of its file',
    );
  });

  test('no class of lib/ extends Error or another built-in error but the base, in lib/errors.ts', () => {
    const offending = CLASSES.filter((c) => BUILT_IN_ERRORS.includes(c.parent) && c.file !== BASE_MODULE).map(
      (c) => `${c.file}: ${c.name} extends ${c.parent}`,
    );
    assert.deepEqual(offending, []);
  });

  test('every error class declares a code of the catalogue, and the catalogue names that class', () => {
    const wrong = ERROR_CLASSES.filter(
      (c) => c.code === undefined || !Object.hasOwn(ERRORS, c.code) || ERRORS[c.code as keyof typeof ERRORS].class !== c.name,
    );
    assert.deepEqual(
      wrong.map((c) => `${c.file}: ${c.name} has code ${c.code ?? '(none)'}`),
      [],
    );
  });

  test('every code is carried by one class, and every code of the catalogue has its class', () => {
    const byCode = new Map<string, string[]>();
    for (const c of ERROR_CLASSES) byCode.set(c.code ?? '', [...(byCode.get(c.code ?? '') ?? []), `${c.file}: ${c.name}`]);
    assert.deepEqual(
      [...byCode].filter(([, classes]) => classes.length > 1),
      [],
      'a code carried by two classes',
    );
    assert.deepEqual(
      Object.keys(ERRORS).filter((code) => !byCode.has(code)),
      [],
      'a code of the catalogue no class carries',
    );
    const classNames = Object.values(ERRORS).map((entry) => entry.class);
    assert.equal(new Set(classNames).size, classNames.length, 'two codes name the same class');
  });

  test('no two error classes of lib/ share a name', () => {
    const names = ERROR_CLASSES.map((c) => c.name);
    assert.deepEqual(
      names.filter((name, i) => names.indexOf(name) !== i),
      [],
    );
  });

  test('codes read XC_ERR_ and upper case', () => {
    assert.deepEqual(
      Object.keys(ERRORS).filter((code) => !/^XC_ERR_[A-Z0-9_]+$/.test(code)),
      [],
    );
  });
});

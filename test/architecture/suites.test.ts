/**
 * The catalogue is the single source of statuses and codes: a suite never restates one (the checks read
 * them from the requirement's `expect`), and every scenario has a stable id of its own.
 */
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { PACKAGE_ROOT } from '../../lib/cli/package-root.js';
import { SCENARIO_ID_PATTERN } from '../../lib/fixtures/scenario.js';
import { MESSAGE_CODES } from '../../lib/spec/schemas/index.js';

const SUITES = readdirSync(join(PACKAGE_ROOT, 'suites'), { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.spec.ts'))
  .map((file) => ({ file, text: readFileSync(join(PACKAGE_ROOT, 'suites', file), 'utf8') }));

describe('suites', () => {
  test('there are suites to look at', () => assert.ok(SUITES.length > 0));

  test('no suite names an error code: codes are read from the catalogue', () => {
    const found = SUITES.flatMap(({ file, text }) =>
      MESSAGE_CODES.filter((code) => new RegExp(`['"\`]${code}['"\`]`).test(text)).map((code) => `${file}: ${code}`),
    );
    assert.deepEqual(found, []);
  });

  test('no suite compares a status with a literal: statuses are read from the catalogue', () => {
    // `status === 400`, `status: 401`, `toBe(404)`… A range test (>= 400 && < 500) states a class, not a status.
    const literal = /status\s*(?:===?|!==?|:)\s*[1-5]\d\d\b|(?:toBe|toHaveStatus|status)\(\s*[1-5]\d\d\b/;
    const found = SUITES.flatMap(({ file, text }) =>
      text.split('\n').flatMap((line, i) => (literal.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
    );
    assert.deepEqual(found, []);
  });

  test('scenario ids are well formed and unique across the suites', () => {
    const ids = SUITES.flatMap(({ text }) =>
      [...text.matchAll(/\bscenario\(\s*'([^']+)'/g), ...text.matchAll(/\[\s*'([A-Z]{3}-\d{2,3}\.[a-z]{1,2})'\s*,/g)].map(
        (m) => m[1] ?? '',
      ),
    );
    assert.ok(ids.length > 0);
    assert.deepEqual(
      ids.filter((id) => !SCENARIO_ID_PATTERN.test(id)),
      [],
    );
    assert.deepEqual(
      ids.filter((id, i) => ids.indexOf(id) !== i),
      [],
    );
  });
});

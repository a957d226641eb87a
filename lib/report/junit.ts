/**
 * JUnit XML for CI systems: one testsuite per suite file, one testcase per test, requirement ids as
 * properties. Known deviations are reported as skipped so a gate does not block on a reviewed exception.
 */
import { escapeMarkup as x } from './escape.js';
import type { RunResults, TestRecord } from './types.js';

export function renderJunit(results: RunResults): string {
  const deviating = new Set(results.requirements.filter((r) => r.status === 'KNOWN_DEVIATION').map((r) => r.id));
  const byFile = new Map<string, TestRecord[]>();
  for (const test of results.tests) byFile.set(test.file, [...(byFile.get(test.file) ?? []), test]);

  const seconds = (ms: number) => (ms / 1000).toFixed(3);
  const suites = [...byFile.entries()].map(([file, tests]) => {
    const failures = tests.filter((t) => t.status === 'FAIL' && !isDeviation(t, deviating)).length;
    const errors = tests.filter((t) => t.status === 'INTERRUPTED').length;
    const skipped = tests.length - failures - errors - tests.filter((t) => t.status === 'PASS').length;
    const time = tests.reduce((sum, t) => sum + t.durationMs, 0);
    const cases = tests.map((test) => renderCase(test, isDeviation(test, deviating))).join('\n');
    return (
      `  <testsuite name="${x(file)}" tests="${tests.length}" failures="${failures}" errors="${errors}" ` +
      `skipped="${skipped}" time="${seconds(time)}">\n${cases}\n  </testsuite>`
    );
  });
  const s = results.summary.tests;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="xs2a-conformance ${x(results.target.name)}" tests="${s.total}" failures="${s.FAIL}" ` +
      `errors="${s.INTERRUPTED}" skipped="${s.SKIPPED + s.NOT_TESTABLE}" time="${seconds(results.durationMs)}">`,
    ...suites,
    '</testsuites>',
    '',
  ].join('\n');
}

function isDeviation(test: TestRecord, deviating: Set<string>): boolean {
  return test.status === 'FAIL' && test.requirements.some((id) => deviating.has(id));
}

function renderCase(test: TestRecord, deviation: boolean): string {
  const name = `${test.requirements.length ? `[${test.requirements.join(' ')}] ` : ''}${test.title}`;
  const properties = test.requirements.map((id) => `        <property name="requirement" value="${x(id)}"/>`);
  const body: string[] = [];
  if (properties.length) body.push(`      <properties>\n${properties.join('\n')}\n      </properties>`);
  if (deviation) body.push(`      <skipped message="known deviation"/>`);
  else if (test.status === 'FAIL') {
    body.push(`      <failure message="${x(firstLine(test.error))}">${x(test.error ?? '')}</failure>`);
  } else if (test.status === 'INTERRUPTED') {
    body.push(`      <error message="${x(firstLine(test.error))}">${x(test.error ?? '')}</error>`);
  } else if (test.status !== 'PASS') {
    body.push(`      <skipped message="${x(`${test.status}: ${test.reason ?? ''}`)}"/>`);
  }
  const open = `    <testcase classname="${x(test.file)}" name="${x(name)}" time="${(test.durationMs / 1000).toFixed(3)}"`;
  return body.length ? `${open}>\n${body.join('\n')}\n    </testcase>` : `${open}/>`;
}

function firstLine(text: string | undefined): string {
  return (text ?? '').split('\n')[0] ?? '';
}

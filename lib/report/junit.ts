/**
 * JUnit XML for CI systems: one testsuite per suite file, one testcase per scenario (named by its stable id
 * and title), its requirement ids as properties. A failed check is a failure, listing every failed check; a
 * scenario that stopped with an error or was interrupted is an error; known deviations are skipped, so a
 * gate does not block on a reviewed exception.
 */
import { escapeMarkup as x } from './escape.js';
import type { RunResults, TestRecord } from './types.js';

export function renderJunit(results: RunResults): string {
  const deviating = new Set(results.requirements.filter((r) => r.status === 'KNOWN_DEVIATION').map((r) => r.id));
  const byFile = new Map<string, TestRecord[]>();
  for (const test of results.tests.filter((t) => t.fault === undefined)) byFile.set(test.file, [...(byFile.get(test.file) ?? []), test]);

  const seconds = (ms: number) => (ms / 1000).toFixed(3);
  const kinds = [...byFile.values()].flat().map((test) => kindOf(test, deviating));
  const count = (kind: Kind, list: Kind[] = kinds) => list.filter((k) => k === kind).length;
  const suites = [...byFile.entries()].map(([file, tests]) => {
    const local = tests.map((test) => kindOf(test, deviating));
    const time = tests.reduce((sum, t) => sum + t.durationMs, 0);
    const cases = tests.map((test, i) => renderCase(test, local[i] ?? 'pass')).join('\n');
    return (
      `  <testsuite name="${x(file)}" tests="${tests.length}" failures="${count('failure', local)}" errors="${count('error', local)}" ` +
      `skipped="${count('skipped', local)}" time="${seconds(time)}">\n${cases}\n  </testsuite>`
    );
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="xs2a-conformance ${x(results.target.name)}" tests="${kinds.length}" failures="${count('failure')}" ` +
      `errors="${count('error')}" skipped="${count('skipped')}" time="${seconds(results.durationMs)}">`,
    ...suites,
    '</testsuites>',
    '',
  ].join('\n');
}

type Kind = 'pass' | 'failure' | 'error' | 'skipped';

/** A failure is excused (skipped) when every requirement whose check failed is a known deviation. */
function kindOf(test: TestRecord, deviating: Set<string>): Kind {
  if (test.status === 'FAIL') {
    const failed = test.checks.filter((c) => c.verdict === 'FAIL').map((c) => c.requirement);
    return failed.length > 0 && failed.every((id) => deviating.has(id)) ? 'skipped' : 'failure';
  }
  if (test.status === 'ERROR' || test.status === 'INTERRUPTED') return 'error';
  return test.status === 'PASS' ? 'pass' : 'skipped';
}

function renderCase(test: TestRecord, kind: Kind): string {
  const properties = [
    `        <property name="scenario" value="${x(test.scenario)}"/>`,
    ...test.requirements.map((id) => `        <property name="requirement" value="${x(id)}"/>`),
  ];
  const body: string[] = [`      <properties>\n${properties.join('\n')}\n      </properties>`];
  const failedChecks = test.checks.filter((c) => c.verdict === 'FAIL');
  if (kind === 'failure') {
    const text = failedChecks.map((c) => c.message ?? c.requirement).join('\n\n');
    body.push(`      <failure message="${x(firstLine(failedChecks[0]?.message))}">${x(text)}</failure>`);
  } else if (kind === 'error') {
    body.push(`      <error message="${x(`${test.status}: ${firstLine(test.reason ?? test.error)}`)}">${x(test.error ?? test.reason ?? '')}</error>`);
  } else if (kind === 'skipped') {
    const message = test.status === 'FAIL' ? 'known deviation' : `${test.status}: ${test.reason ?? ''}`;
    body.push(`      <skipped message="${x(message)}"/>`);
  }
  const open = `    <testcase classname="${x(test.file)}" name="${x(test.title)}" time="${(test.durationMs / 1000).toFixed(3)}"`;
  return `${open}>\n${body.join('\n')}\n    </testcase>`;
}

function firstLine(text: string | undefined): string {
  return (text ?? '').split('\n')[0] ?? '';
}

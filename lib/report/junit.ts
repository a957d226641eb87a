/**
 * JUnit XML for CI systems: one testsuite per suite file, one testcase per scenario (named by its stable id
 * and title) with the spec file and line it is written at, its requirement ids as properties. A failed MUST
 * check is a failure, listing every failed check; a scenario that stopped with an error or was interrupted is
 * an error; FLAKY (passed only on retry) is a failure. A scenario whose only failures are known deviations is
 * skipped, with the deviation's reason and expiry, so a gate does not block on a reviewed exception. A failed
 * SHOULD or MAY check does not fail the testcase, but shows: a `warning` property each and the text in
 * system-out. Evidence files (screenshots, traces) are named in system-out as `[[ATTACHMENT|path]]`, the
 * convention Jenkins and GitLab read, relative to the report folder.
 */
import { escapeMarkup as x } from './escape.js';
import type { RequirementRecord, RunResults, TestRecord } from './results-types.js';

export function renderJunit(results: RunResults): string {
  const deviations = new Map(results.requirements.filter((r) => r.status === 'KNOWN_DEVIATION').map((r) => [r.id, r]));
  const byFile = new Map<string, TestRecord[]>();
  for (const test of results.tests.filter((t) => t.gauntletCase === undefined))
    byFile.set(test.file, [...(byFile.get(test.file) ?? []), test]);

  const seconds = (ms: number) => (ms / 1000).toFixed(3);
  const kinds = [...byFile.values()].flat().map((test) => kindOf(test, deviations));
  const count = (kind: Kind, list: Kind[] = kinds) => list.filter((k) => k === kind).length;
  const suites = [...byFile.entries()].map(([file, tests]) => {
    const local = tests.map((test) => kindOf(test, deviations));
    const time = tests.reduce((sum, t) => sum + t.durationMs, 0);
    const cases = tests.map((test, i) => renderCase(test, local[i] ?? 'pass', deviations)).join('\n');
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

function failedRequirements(test: TestRecord): string[] {
  return [...new Set(test.checks.filter((c) => c.verdict === 'FAIL').map((c) => c.requirement))];
}

/** A failure is excused (skipped) when every requirement whose check failed is a known deviation. */
function kindOf(test: TestRecord, deviations: ReadonlyMap<string, RequirementRecord>): Kind {
  if (test.status === 'FAIL') {
    const failed = failedRequirements(test);
    return failed.length > 0 && failed.every((id) => deviations.has(id)) ? 'skipped' : 'failure';
  }
  if (test.status === 'FLAKY') return 'failure';
  if (test.status === 'ERROR' || test.status === 'INTERRUPTED') return 'error';
  return test.status === 'PASS' ? 'pass' : 'skipped';
}

function renderCase(test: TestRecord, kind: Kind, deviations: ReadonlyMap<string, RequirementRecord>): string {
  const properties = [
    `        <property name="scenario" value="${x(test.scenario)}"/>`,
    ...test.requirements.map((id) => `        <property name="requirement" value="${x(id)}"/>`),
    ...test.warnings.map((warning) => `        <property name="warning" value="${x(firstLine(warning))}"/>`),
  ];
  const body: string[] = [`      <properties>\n${properties.join('\n')}\n      </properties>`];
  const failedChecks = test.checks.filter((c) => c.verdict === 'FAIL');
  if (kind === 'failure') {
    const text = failedChecks.map((c) => c.message ?? c.requirement).join('\n\n') || test.error || test.reason || test.status;
    const message = test.status === 'FLAKY' ? `FLAKY: ${test.reason ?? 'passed only on retry'}` : firstLine(failedChecks[0]?.message);
    body.push(`      <failure message="${x(message)}" type="${test.status}">${x(text)}</failure>`);
  } else if (kind === 'error') {
    body.push(
      `      <error message="${x(`${test.status}: ${firstLine(test.reason ?? test.error)}`)}" type="${test.status}">${x(test.error ?? test.reason ?? '')}</error>`,
    );
  } else if (kind === 'skipped') {
    body.push(
      `      <skipped message="${x(test.status === 'FAIL' ? deviationMessage(failedRequirements(test), deviations) : `${test.status}: ${test.reason ?? ''}`)}"/>`,
    );
  }
  const out = [
    ...test.warnings.map((warning) => `WARNING ${warning}`),
    ...test.evidence.files.map((file) => `[[ATTACHMENT|${file.path}]]`),
  ];
  if (out.length > 0) body.push(`      <system-out>${x(out.join('\n\n'))}</system-out>`);
  const open = `    <testcase classname="${x(test.file)}" name="${x(test.title)}" file="${x(test.file)}" line="${test.line}" time="${(test.durationMs / 1000).toFixed(3)}"`;
  return `${open}>\n${body.join('\n')}\n    </testcase>`;
}

/** `known deviation SIG-04: reason (until 2027-03-01)`, for each requirement excused. */
function deviationMessage(ids: readonly string[], deviations: ReadonlyMap<string, RequirementRecord>): string {
  return ids
    .map((id) => {
      const deviation = deviations.get(id);
      return `known deviation ${id}: ${deviation?.reason ?? ''}${deviation?.deviation?.until ? ` (until ${deviation.deviation.until})` : ''}`;
    })
    .join('; ');
}

function firstLine(text: string | undefined): string {
  return (text ?? '').split('\n')[0] ?? '';
}

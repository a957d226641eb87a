/** Small pieces the report's sections share: badges, links to anchors, counts, and how a scenario is shown. */
import { escapeMarkup as h } from '../escape.js';
import type { RequirementRecord, RunResults, TestRecord } from '../results-types.js';

export { h };

export function badge(status: string, label = status): string {
  return `<span class="b ${h(status)}">${h(label)}</span>`;
}

/** A link to a requirement's or a scenario's stable anchor (`#SIG-04`, `#SIG-04.a`). */
export function anchor(id: string): string {
  return `<a href="#${h(id)}">${h(id)}</a>`;
}

/** Non-zero counts as badges, in the order given: `3 PASS 1 FAIL`. */
export function counts(values: readonly string[], order: readonly string[]): string {
  const tally = new Map<string, number>();
  for (const value of values) tally.set(value, (tally.get(value) ?? 0) + 1);
  return order
    .filter((status) => tally.get(status))
    .map((status) => `<span>${tally.get(status)} ${badge(status)}</span>`)
    .join('');
}

/** What the report knows about the run, looked up once. */
export interface ReportIndex {
  results: RunResults;
  requirement: Map<string, RequirementRecord>;
  /** Scenario runs of the target itself (gauntlet runs left out). */
  scenarios: TestRecord[];
  /** Scenarios whose evidence block is on the page (the ones that did not simply pass). */
  withEvidence: Set<string>;
}

export function indexOf(results: RunResults): ReportIndex {
  const requirement = new Map(results.requirements.map((r) => [r.id, r]));
  const scenarios = results.tests.filter((t) => t.gauntletCase === undefined);
  const index: ReportIndex = { results, requirement, scenarios, withEvidence: new Set() };
  for (const test of scenarios) if (needsEvidence(test, index)) index.withEvidence.add(test.scenario);
  return index;
}

/**
 * How a scenario is shown: a FAIL whose failed MUST checks are all of known deviations is shown as
 * KNOWN_DEVIATION (a reviewed exception, not a red failure); a PASS with a failed SHOULD check as WARNING.
 */
export function shownStatus(test: TestRecord, index: ReportIndex): string {
  const failed = test.checks.filter((c) => c.verdict === 'FAIL').map((c) => index.requirement.get(c.requirement));
  if (test.status === 'FAIL') {
    const must = failed.filter((r) => r?.level === 'MUST');
    return must.length > 0 && must.every((r) => r?.status === 'KNOWN_DEVIATION') ? 'KNOWN_DEVIATION' : 'FAIL';
  }
  if (test.status === 'PASS' && failed.length > 0) return 'WARNING';
  return test.status;
}

/** Statuses that earn a scenario its evidence block near the top. */
function needsEvidence(test: TestRecord, index: ReportIndex): boolean {
  return test.status === 'FAIL' || test.status === 'ERROR' || test.status === 'INTERRUPTED' || shownStatus(test, index) === 'WARNING';
}

/** The scenario's title without the id it starts with. */
export function titleOf(test: TestRecord): string {
  return test.title.startsWith(`${test.scenario} `) ? test.title.slice(test.scenario.length + 1) : test.title;
}

/**
 * Scenarios that did not pass, grouped by cause: the same requirements failing with the same expectation (a
 * fault that drops the error body's id fails ERR-01 in 140 scenarios), or the same error once its volatile
 * parts (ids, numbers, addresses) are set aside. A group shows one example in full and the rest as a list of
 * what differs (the request that showed it, what was found), so one root cause is one screen, not 140.
 */
import type { CheckRecord, TestRecord } from '../results-types.js';
import { anchor, badge, h, shownStatus, titleOf, type ReportIndex } from './parts.js';

export interface CauseGroup {
  /** What the scenarios of the group have in common, one line per failed requirement (or the error). */
  cause: string[];
  requirements: string[];
  /** Shown in full: the one with the least evidence to read. */
  example: TestRecord;
  others: TestRecord[];
}

/** The groups, largest first; scenarios keep their order inside a group. */
export function groupByCause(tests: readonly TestRecord[], index: ReportIndex): CauseGroup[] {
  const groups = new Map<string, { cause: string[]; requirements: string[]; tests: TestRecord[] }>();
  for (const test of tests) {
    const { cause, requirements } = causeOf(test, index);
    const key = `${shownStatus(test, index)}\n${cause.join('\n')}`;
    const group = groups.get(key) ?? { cause, requirements, tests: [] };
    group.tests.push(test);
    groups.set(key, group);
  }
  return [...groups.values()]
    .sort((a, b) => b.tests.length - a.tests.length)
    .map(({ cause, requirements, tests: members }) => {
      const example = members.reduce((best, t) => (evidenceSize(t) < evidenceSize(best) ? t : best));
      return { cause, requirements, example, others: members.filter((t) => t !== example) };
    });
}

function failedChecks(test: TestRecord): CheckRecord[] {
  return test.checks.filter((c) => c.verdict === 'FAIL');
}

function causeOf(test: TestRecord, index: ReportIndex): { cause: string[]; requirements: string[] } {
  const failed = failedChecks(test);
  if (failed.length > 0) {
    const lines = [
      ...new Set(
        failed.map(
          (c) => `${c.requirement} ${index.requirement.get(c.requirement)?.level ?? ''}: ${lineOf(c.message, 'Expected:') ?? 'failed'}`,
        ),
      ),
    ].sort();
    return { cause: lines, requirements: [...new Set(failed.map((c) => c.requirement))].sort() };
  }
  const said = test.error ?? test.reason ?? test.status;
  return { cause: [volatileOut(said.split('\n')[0] ?? said)], requirements: [] };
}

/** The text after `label` on a line of a check's message (`Expected: …`, `Actual: …`, `Request: …`). */
function lineOf(message: string | undefined, label: string): string | undefined {
  const line = message?.split('\n').find((l) => l.trimStart().startsWith(label));
  return line?.trimStart().slice(label.length).trim();
}

/** An error line without what changes from one scenario to the next: ids, numbers, ports, quoted values. */
function volatileOut(line: string): string {
  return line
    .replace(/https?:\/\/[^\s/]+/g, '')
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, '…')
    .replace(/\d+/g, '#')
    .slice(0, 300);
}

function evidenceSize(test: TestRecord): number {
  return test.evidence.exchanges.length * 1000 + failedChecks(test).length;
}

/** How a scenario of a group differs from its example: the request that showed the failure, and what was found. */
export function differenceOf(test: TestRecord, example: TestRecord): string {
  const failed = failedChecks(test);
  if (failed.length === 0)
    return test.error && test.error !== example.error ? (test.error.split('\n')[0] ?? '') : 'the same as the example';
  const request = lineOf(failed.find((c) => lineOf(c.message, 'Request:'))?.message, 'Request:');
  const actual = [...new Set(failed.map((c) => lineOf(c.message, 'Actual:')).filter((a) => a !== undefined))].join('; ');
  const where = request?.replace(/https?:\/\/[^\s/]+/, '');
  return [where, actual].filter(Boolean).join(' → ') || 'the same as the example';
}

/** One group: its cause, the example in full (`block`), and the rest, each with its own anchor and difference. */
export function causeGroupBlock(group: CauseGroup, index: ReportIndex, block: (test: TestRecord) => string): string {
  const n = group.others.length + 1;
  const status = shownStatus(group.example, index);
  const heading = `<h3 class="cause">${badge(status)} ${group.requirements.map(anchor).join(' ')} <span class="m">${n} scenario${n === 1 ? '' : 's'}${n > 1 ? ', one cause' : ''}</span></h3>${
    n > 1 ? `<ul class="tight cause-lines">${group.cause.map((line) => `<li class="mono">${h(line)}</li>`).join('')}</ul>` : ''
  }`;
  if (group.others.length === 0) return `<div class="grp-cause">${heading}${block(group.example)}</div>`;
  const rows = group.others.map(
    (t) =>
      `<tr id="${h(t.scenario)}"><td class="id">${h(t.scenario)}</td><td class="st">${badge(shownStatus(t, index))}</td><td>${h(titleOf(t))}<div class="mono m">${h(differenceOf(t, group.example))}</div></td><td class="id m">${h(t.file)}:${h(t.line)}</td></tr>`,
  );
  return `<div class="grp-cause">${heading}<p class="m">The example, in full (the scenario of the group with the least evidence to read):</p>${block(group.example)}<details class="others"><summary>${group.others.length} more scenario${group.others.length === 1 ? '' : 's'} with this cause, and how each differs</summary><table>${rows.join('')}</table><p class="m">Their requests and answers in full: results.json (<code>tests[].evidence</code>), or run one again with <code>--grep ID</code>.</p></details></div>`;
}

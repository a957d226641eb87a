/**
 * Folding checks into requirement verdicts and a run verdict, and the exit code a pipeline acts on.
 * Pure functions: the reporter feeds them, the tests of the project check them.
 *
 * A requirement's verdict comes only from checks of it: a failed check fails its own requirement, never the
 * others of the scenario. A requirement a scenario declares but could not judge (its prerequisite failed,
 * the scenario stopped, the target lacks a capability) is NOT_EVALUATED, NOT_TESTABLE, SKIPPED or
 * INTERRUPTED, with the reason: never a guessed PASS or FAIL.
 */
import type { Requirement } from '../spec/requirements.js';
import { outOfScope, type ScopeName } from '../spec/scopes.js';
import { CAPABILITIES } from '../spec/requirements/requirement-types.js';
import type { Deviation } from '../targets/target-types.js';
import type { MissingRequirement, RequirementRecord, RequirementStatus, RunVerdict, TestRecord } from './results-types.js';

export const EXIT_CODES = {
  conformant: 0,
  nonConformant: 1,
  configurationError: 2,
  infrastructureFailure: 3,
} as const;

export type CatalogueEntry = Pick<Requirement, 'id' | 'area' | 'level' | 'section' | 'statement' | 'testedBy' | 'basis'> &
  Partial<Pick<Requirement, 'interpretation' | 'source' | 'everyExchange'>>;

/** A deviation of the target, and whether its `until` day has passed (then it no longer excuses a failure). */
export type DeviationState = Deviation & { expired?: boolean };

/** What the target offers, for saying why a requirement that needs a capability was not covered. */
export interface CoverageContext {
  targetName: string;
  capabilities: readonly string[];
  embedded: boolean;
  /** The kind of target: what it can never offer is out of its scope (lib/spec/scopes.ts). */
  environment: ScopeName;
}

/**
 * Capabilities the embedded reference bank can never offer: no mobile app, and it is no production target.
 * A requirement that needs one is NOT_COVERED there whatever the run does.
 */
const NEVER_EMBEDDED: ReadonlySet<string> = new Set(['mobile-app', 'production-target']);

/** What one scenario run says about one requirement. */
export interface Judgement {
  status: 'PASS' | 'FAIL' | 'NOT_EVALUATED' | 'NOT_TESTABLE' | 'SKIPPED' | 'INTERRUPTED';
  scenario: string;
  reason?: string;
}

/** A deviation applies until the end of its `until` day (UTC); an expired one no longer excuses a failure. */
export function activeDeviation(id: string, deviations: readonly Deviation[], today: Date): Deviation | undefined {
  return deviations.find((d) => d.requirement === id && !isExpired(d, today));
}

/** The target's deviation for a requirement: the active one, else an expired one (shown, but excusing nothing). */
export function deviationFor(id: string, deviations: readonly Deviation[], today: Date): DeviationState | undefined {
  const active = activeDeviation(id, deviations, today);
  if (active) return active;
  const expired = deviations.find((d) => d.requirement === id);
  return expired ? { ...expired, expired: true } : undefined;
}

function isExpired(deviation: Deviation, today: Date): boolean {
  return deviation.until !== undefined && Date.parse(`${deviation.until}T23:59:59Z`) < today.getTime();
}

/** Per requirement, what this scenario run judged: from its checks, else from how the scenario ended. */
export function judgementsOf(test: TestRecord): Map<string, Judgement> {
  const out = new Map<string, Judgement>();
  const scenario = test.scenario;
  for (const record of test.checks) {
    const previous = out.get(record.requirement);
    if (record.verdict === 'FAIL') {
      if (previous?.status !== 'FAIL')
        out.set(record.requirement, { status: 'FAIL', scenario, reason: `${scenario}: ${failureSummary(record.message)}` });
    } else if (record.verdict === 'PASS') {
      if (previous === undefined || previous.status === 'NOT_EVALUATED') out.set(record.requirement, { status: 'PASS', scenario });
    } else if (previous === undefined) {
      out.set(record.requirement, { status: 'NOT_EVALUATED', scenario, reason: record.message ?? 'not evaluated' });
    }
  }
  for (const id of test.requirements) {
    if (out.has(id)) continue;
    out.set(id, { scenario, ...unjudged(test) });
  }
  return out;
}

/** A declared requirement no check judged: what the scenario's ending says about it. */
function unjudged(test: TestRecord): Omit<Judgement, 'scenario'> {
  switch (test.status) {
    case 'NOT_TESTABLE':
    case 'SKIPPED':
    case 'INTERRUPTED':
      return { status: test.status, reason: test.reason ?? test.status.toLowerCase() };
    case 'ERROR':
      return { status: 'NOT_EVALUATED', reason: `the scenario stopped before judging it: ${firstLine(test.error) || 'an error'}` };
    default:
      return { status: 'NOT_EVALUATED', reason: 'the scenario made no check of it' };
  }
}

/** Worst first: the order in which judgements of several scenarios decide a requirement. */
const PRECEDENCE: readonly Judgement['status'][] = ['FAIL', 'INTERRUPTED', 'NOT_EVALUATED', 'NOT_TESTABLE', 'SKIPPED', 'PASS'];

export function foldRequirement(
  entry: CatalogueEntry,
  judgements: readonly Judgement[],
  listed: DeviationState | undefined,
  coverage?: CoverageContext,
): RequirementRecord {
  const base: RequirementRecord = {
    id: entry.id,
    area: entry.area,
    level: entry.level,
    section: entry.section,
    statement: entry.statement,
    testedBy: entry.testedBy,
    ...(entry.everyExchange ? { invariant: true } : {}),
    basis: entry.basis,
    fillsGap: entry.basis !== 'specification',
    ...(entry.source ? { source: entry.source } : {}),
    status: 'NOT_COVERED',
    tests: [...new Set(judgements.map((j) => j.scenario))],
    ...(entry.interpretation ? { interpretation: entry.interpretation } : {}),
    ...(listed
      ? {
          deviation: {
            reason: listed.reason,
            ...(listed.until ? { until: listed.until } : {}),
            ...(listed.expired ? { expired: true } : {}),
          },
        }
      : {}),
  };
  const deviation = listed?.expired ? undefined : listed;
  if (judgements.length === 0) {
    if (entry.testedBy.startsWith('manual:')) return { ...base, status: 'MANUAL', reason: entry.testedBy.slice(7) };
    const scoped = outOfScopeReason(entry, coverage);
    if (scoped !== undefined) return { ...base, status: 'OUT_OF_SCOPE', reason: scoped };
    return { ...base, status: 'NOT_COVERED', reason: notCoveredReason(entry, coverage) };
  }
  const worst = PRECEDENCE.find((status) => judgements.some((j) => j.status === status)) ?? 'PASS';
  const reason = judgements.find((j) => j.status === worst)?.reason;
  if (worst === 'FAIL') {
    if (deviation) return { ...base, status: 'KNOWN_DEVIATION', reason: deviation.reason };
    const expiredNote = listed?.expired ? ` (its deviation expired on ${listed.until ?? '?'})` : '';
    // A rule the catalogue holds at SHOULD or MAY is reported, but does not make the target non-conformant.
    return { ...base, status: entry.level === 'MUST' ? 'FAIL' : 'WARNING', ...(reason ? { reason: reason + expiredNote } : {}) };
  }
  if (worst === 'INTERRUPTED') return { ...base, status: 'INTERRUPTED', ...(reason ? { reason } : {}) };
  if (deviation) {
    return { ...base, status: 'KNOWN_DEVIATION', reason: deviation.reason, deviationUnexpectedlyPasses: worst === 'PASS' };
  }
  return { ...base, status: worst, ...(reason && worst !== 'PASS' ? { reason } : {}) };
}

/** Why an entry is out of the target's scope: it needs what no target of its kind can offer, and this one does not declare it. */
function outOfScopeReason(entry: CatalogueEntry, coverage: CoverageContext | undefined): string | undefined {
  const capability = entry.testedBy.startsWith('needs-capability:') ? entry.testedBy.slice('needs-capability:'.length) : undefined;
  if (!capability || !coverage || coverage.capabilities.includes(capability) || !outOfScope(coverage.environment, capability))
    return undefined;
  const meaning = (CAPABILITIES as Record<string, string>)[capability];
  return `out of ${coverage.environment} scope: it needs capability ${capability}${meaning ? ` (${meaning})` : ''}, which no ${coverage.environment} target can offer`;
}

/** Why no scenario judged an entry: a capability the target lacks (and may never have), or none ran. */
function notCoveredReason(entry: CatalogueEntry, coverage: CoverageContext | undefined): string {
  const capability = entry.testedBy.startsWith('needs-capability:') ? entry.testedBy.slice('needs-capability:'.length) : undefined;
  if (!capability || !coverage || coverage.capabilities.includes(capability)) return 'no scenario of this run checks it';
  const meaning = (CAPABILITIES as Record<string, string>)[capability];
  const never = coverage.embedded && NEVER_EMBEDDED.has(capability) ? ', and the embedded reference bank never can' : '';
  return `needs capability ${capability}${meaning ? ` (${meaning})` : ''}: target ${coverage.targetName} does not declare it${never}`;
}

/** Requirement verdicts of a set of scenario runs against the whole catalogue. */
export function foldAll(
  catalogue: readonly CatalogueEntry[],
  tests: readonly TestRecord[],
  deviationOf: (id: string) => DeviationState | undefined,
  coverage?: CoverageContext,
): RequirementRecord[] {
  const byRequirement = new Map<string, Judgement[]>();
  for (const test of tests) {
    for (const [id, judgement] of judgementsOf(test)) byRequirement.set(id, [...(byRequirement.get(id) ?? []), judgement]);
  }
  return catalogue.map((entry) => foldRequirement(entry, byRequirement.get(entry.id) ?? [], deviationOf(entry.id), coverage));
}

/**
 * CONFORMANT needs every automated requirement exercised and none failing. A run that could not judge what
 * it set out to (an interruption, a scenario that stopped with an error) exits 3; filtered or partial runs
 * are INCOMPLETE but exit 0 when nothing failed, so `--grep` stays usable.
 */
export function runVerdict(
  requirements: readonly RequirementRecord[],
  tests: readonly Pick<TestRecord, 'status' | 'scenario'>[],
  filtered: boolean,
  /** Errors outside any scenario (a suite file that does not load): the run cannot certify anything. */
  runErrors: readonly string[] = [],
): { verdict: RunVerdict; reasons: string[]; exitCode: number; missing: MissingRequirement[] } {
  const missing = missingForConformant(requirements);
  const ids = (status: RequirementStatus) => requirements.filter((r) => r.status === status).map((r) => r.id);
  const failed = ids('FAIL');
  const errored = tests.filter((t) => t.status === 'ERROR').map((t) => t.scenario);
  const flaky = tests.filter((t) => t.status === 'FLAKY').map((t) => t.scenario);
  if (failed.length > 0) {
    const reasons = [`${failed.length} requirement(s) failed: ${failed.join(', ')}`];
    if (errored.length > 0) reasons.push(`${errored.length} scenario(s) stopped with an error: ${errored.join(', ')}`);
    return { verdict: 'NON_CONFORMANT', reasons, exitCode: EXIT_CODES.nonConformant, missing };
  }
  const reasons: string[] = runErrors.map((error) => `the suite did not run as written: ${firstLine(error)}`);
  const interrupted = ids('INTERRUPTED');
  if (interrupted.length > 0) reasons.push(`${interrupted.length} requirement(s) interrupted: ${interrupted.join(', ')}`);
  if (errored.length > 0) reasons.push(`${errored.length} scenario(s) stopped with an error: ${errored.join(', ')}`);
  if (flaky.length > 0) reasons.push(`${flaky.length} scenario(s) FLAKY, passed only on retry: ${flaky.join(', ')}`);
  if (filtered) reasons.push('the run was filtered (--grep, XS2A_GREP, --shard or a file filter)');
  const notCovered = ids('NOT_COVERED');
  if (notCovered.length > 0)
    reasons.push(`${notCovered.length} requirement(s) not exercised by this run${filtered ? '' : `: ${notCovered.join(', ')}`}`);
  for (const status of ['NOT_EVALUATED', 'NOT_TESTABLE', 'SKIPPED'] as const) {
    const n = ids(status);
    if (n.length > 0) reasons.push(`${n.length} requirement(s) ${status}${n.length <= LISTED_IDS ? `: ${n.join(', ')}` : ''}`);
  }
  // Every reason a requirement could not be tested, once each: what the target would have to offer.
  for (const [reason, which] of groupReasons(missing.filter((m) => m.status === 'NOT_TESTABLE')))
    reasons.push(`NOT_TESTABLE (${which.join(', ')}): ${reason}`);
  if (reasons.length === 0) {
    // CONFORMANT says in what scope: what no target of this kind can offer was not judged, and is named.
    const scoped = ids('OUT_OF_SCOPE');
    const scope = requirements.find((r) => r.status === 'OUT_OF_SCOPE')?.reason?.match(/^out of (\w+) scope/)?.[1];
    const named = scoped.length > 0 ? [`${scope ?? 'its'} scope; ${scoped.length} requirement(s) out of scope: ${scoped.join(', ')}`] : [];
    return { verdict: 'CONFORMANT', reasons: named, exitCode: EXIT_CODES.conformant, missing };
  }
  const outside = ids('OUT_OF_SCOPE');
  if (outside.length > 0) reasons.push(`${outside.length} requirement(s) out of scope: ${outside.join(', ')}`);
  const couldNotJudge = interrupted.length > 0 || errored.length > 0 || flaky.length > 0 || runErrors.length > 0;
  return { verdict: 'INCOMPLETE', reasons, exitCode: couldNotJudge ? EXIT_CODES.infrastructureFailure : EXIT_CODES.conformant, missing };
}

/** Past this many, a reason counts requirements instead of naming them (a filtered run leaves hundreds out). */
const LISTED_IDS = 12;

/** Statuses that leave a requirement short of CONFORMANT; MANUAL entries are a person's to check and do not. */
const BLOCKING: ReadonlySet<RequirementStatus> = new Set([
  'FAIL',
  'INTERRUPTED',
  'NOT_EVALUATED',
  'NOT_TESTABLE',
  'SKIPPED',
  'NOT_COVERED',
]);

/** Each requirement that keeps the run from CONFORMANT, with its reason. */
export function missingForConformant(requirements: readonly RequirementRecord[]): MissingRequirement[] {
  return requirements
    .filter((r) => BLOCKING.has(r.status))
    .map((r) => ({ id: r.id, status: r.status, reason: r.reason ?? r.status.toLowerCase() }));
}

function groupReasons(items: readonly MissingRequirement[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const item of items) out.set(item.reason, [...(out.get(item.reason) ?? []), item.id]);
  return out;
}

/** The Expected and Actual lines of a failed check, on one line. */
export function failureSummary(message: string | undefined): string {
  const lines = (message ?? '').split('\n').map((line) => line.trim());
  const picked = lines.filter((line) => /^(Expected|Actual):/.test(line)).map((line) => line.replace(/\s+/g, ' '));
  return picked.length > 0 ? picked.join('; ') : firstLine(message);
}

function firstLine(text: string | undefined): string {
  return (text ?? '').split('\n')[0] ?? '';
}

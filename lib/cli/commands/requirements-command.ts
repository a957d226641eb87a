/**
 * `xs2a-conformance requirements`: the requirement catalogue as a table or JSON, filtered by area, level and
 * how a requirement is tested; `--uncovered` lists the requirements a scenario could check (automated, or given a capability) that none
 * does yet.
 * Given ids, it shows those entries in full: the interpretation, the basis, and for a TPP rule the call that
 * exercises it.
 *
 *   requirements [--json] [--area SIG[,PAY]] [--level MUST[,SHOULD]] [--tested-by automated|manual|needs-capability]
 *                [--uncovered]
 *   requirements [--json] ID...
 *
 * Exit codes: 0 listed; 1 with --uncovered when a suite names an id the catalogue lacks; 2 usage error (an
 * unknown id, named with the nearest one); 3 the suites could not be listed.
 */
import { unknownRequirementIds, uncoveredRequirements } from '../../spec/coverage.js';
import { SuiteListingError, listSuiteTests } from '../suite-listing.js';
import {
  AREAS,
  AREA_PREFIXES,
  LEVELS,
  REQUIREMENTS,
  testedByKind,
  type Area,
  type Requirement,
  type RequirementLevel,
} from '../../spec/requirements.js';
import { InvalidArgumentError, type Command } from 'commander';
import { closest } from 'fastest-levenshtein';
import { tppRuleCard } from '../../tpp-judge/index.js';
import { didYouMean, UsageError, type CliCommand } from '../command.js';
import { suiteHome } from '../suite-home.js';

const TESTED_BY_KINDS = ['automated', 'manual', 'needs-capability'] as const;
type TestedByKind = (typeof TESTED_BY_KINDS)[number];

export interface RequirementsOptions {
  json?: boolean;
  area?: Set<Area>;
  level?: Set<RequirementLevel>;
  testedBy?: Set<TestedByKind>;
  uncovered?: boolean;
}

/** A comma-separated list of known values (case as `normalise` makes it). */
function listOf<T extends string>(allowed: readonly T[], normalise: (value: string) => string): (raw: string) => Set<T> {
  return (raw) => {
    const values = raw
      .split(',')
      .map((value) => normalise(value.trim()))
      .filter((value) => value !== '');
    if (values.length === 0) throw new InvalidArgumentError(`expected one or more of ${allowed.join(', ')}`);
    for (const value of values) {
      if (!(allowed as readonly string[]).includes(value)) {
        throw new InvalidArgumentError(
          `unknown value "${value}"${didYouMean(value, allowed)} (expected one or more of ${allowed.join(', ')})`,
        );
      }
    }
    return new Set(values as T[]);
  };
}

export function filterRequirements(requirements: readonly Requirement[], options: RequirementsOptions): Requirement[] {
  return requirements.filter(
    (requirement) =>
      (!options.area || options.area.has(requirement.area)) &&
      (!options.level || options.level.has(requirement.level)) &&
      (!options.testedBy || options.testedBy.has(testedByKind(requirement))),
  );
}

function truncate(text: string, width: number): string {
  if (width <= 1) return '';
  return text.length <= width ? text : `${text.slice(0, width - 1)}…`;
}

function testedByLabel(requirement: Requirement): string {
  switch (testedByKind(requirement)) {
    case 'automated':
      return 'automated';
    case 'needs-capability':
      return `needs:${requirement.testedBy.slice('needs-capability:'.length)}`;
    default:
      return 'manual';
  }
}

/** A fixed-width table: id, level, area, tested-by, statement (cut to the line width). */
export function formatTable(requirements: readonly Requirement[], lineWidth: number): string {
  const rows = requirements.map((r) => [r.retired ? `${r.id}*` : r.id, r.level, r.area, testedByLabel(r), r.statement] as const);
  const header = ['ID', 'LEVEL', 'AREA', 'TESTED-BY', 'STATEMENT'] as const;
  const widths = [0, 1, 2, 3].map((column) => Math.max(header[column]?.length ?? 0, ...rows.map((row) => row[column]?.length ?? 0)));
  const lead = widths.reduce((sum, width) => sum + width + 2, 0);
  const statementWidth = Math.max(20, lineWidth - lead);
  const line = (cells: readonly string[]): string =>
    [...cells.slice(0, 4).map((cell, column) => cell.padEnd(widths[column] ?? 0)), truncate(cells[4] ?? '', statementWidth)]
      .join('  ')
      .trimEnd();
  return [
    line(header),
    line(widths.map((width) => '-'.repeat(width)).concat('-'.repeat(Math.min(statementWidth, 9)))),
    ...rows.map(line),
  ].join('\n');
}

function countLine(requirements: readonly Requirement[]): string {
  const byLevel = LEVELS.map((level) => `${requirements.filter((r) => r.level === level).length} ${level}`).join(', ');
  const byKind = TESTED_BY_KINDS.map((kind) => `${requirements.filter((r) => testedByKind(r) === kind).length} ${kind}`).join(', ');
  return `${requirements.length} requirement${requirements.length === 1 ? '' : 's'} (${byLevel}; ${byKind})`;
}

export const requirementsCommand: CliCommand = {
  configure(command) {
    command
      .argument('[ids...]', 'show these entries in full (e.g. TPP-11 TPP-39); the filters do not apply')
      .option('--json', 'print the full entries as JSON')
      .option(
        '--area <A[,B...]>',
        `only these areas (${AREA_PREFIXES.join(', ')})`,
        listOf(AREA_PREFIXES, (v) => v.toUpperCase()),
      )
      .option(
        '--level <L[,M...]>',
        `only these levels (${LEVELS.join(', ')})`,
        listOf(LEVELS, (v) => v.toUpperCase()),
      )
      .option(
        '--tested-by <K[,K...]>',
        `only these kinds (${TESTED_BY_KINDS.join(', ')})`,
        listOf(TESTED_BY_KINDS, (v) => v.toLowerCase()),
      )
      .option('--uncovered', 'only requirements a scenario could check that none does yet (invariants excluded)')
      .addHelpText(
        'after',
        '\nExit codes: 0 listed; 1 with --uncovered when a suite names an id the catalogue lacks; 2 usage error; 3 the suites could not be listed.',
      );
  },
  run: (command: Command) =>
    command.args.length > 0
      ? showRequirements(command.args, command.opts<RequirementsOptions>())
      : listRequirements(command.opts<RequirementsOptions>()),
};

/** The entries named, in full; an id the catalogue lacks is a usage error naming the nearest one. */
function showRequirements(ids: readonly string[], options: RequirementsOptions): Promise<number> {
  const known = REQUIREMENTS.map((r) => r.id);
  const entries = ids.map((given) => {
    const entry = REQUIREMENTS.find((r) => r.id === given.trim().replace(/^@/, '').toUpperCase());
    if (entry === undefined)
      throw new UsageError(`requirements: unknown requirement id "${given}" (the nearest is ${closest(given.toUpperCase(), known)})`);
    return entry;
  });
  if (options.json)
    console.log(
      JSON.stringify(
        entries.map((entry) => ({ ...entry, ...hintOf(entry) })),
        null,
        2,
      ),
    );
  else console.log(entries.map(formatEntry).join('\n\n'));
  return Promise.resolve(0);
}

/** For a TPP rule the judge judges, the call that exercises it. */
function hintOf(entry: Requirement): { hint?: string } {
  const card = entry.area === 'TPP' ? tppRuleCard(entry.id) : undefined;
  return card?.judged === true ? { hint: card.hint } : {};
}

/** One entry as a block of labelled lines. */
export function formatEntry(entry: Requirement): string {
  const { hint } = hintOf(entry);
  const lines: [string, string | undefined][] = [
    ['Section', entry.section],
    ['Tested by', entry.testedBy],
    ['Basis', entry.basis === 'specification' ? undefined : `${entry.basis}${entry.source === undefined ? '' : ` (${entry.source})`}`],
    ['Interpretation', entry.interpretation],
    ['Exercised by', hint],
    ...(entry.review ?? []).map((review): [string, string] => [
      'Review',
      `${review.finding}, ${review.answer}: ${review.what}. ${review.reason}`,
    ]),
    ['Retired', entry.retired ? 'yes: kept so that the id is never reused' : undefined],
  ];
  const head = `${entry.id}  ${entry.level}  ${entry.area}`;
  return [
    head,
    `  ${entry.statement}`,
    ...lines.filter((line): line is [string, string] => line[1] !== undefined).map(([label, text]) => `  ${label}: ${text}`),
  ].join('\n');
}

async function listRequirements(options: RequirementsOptions): Promise<number> {
  let exitCode = 0;

  let selected = filterRequirements(REQUIREMENTS, options);
  let coverageNote: string | undefined;
  if (options.uncovered) {
    try {
      // Where Playwright can load the suite: the install's copy outside node_modules (suite-home.ts), or the checkout.
      const listing = await listSuiteTests({ cwd: suiteHome() });
      const uncovered = new Set(uncoveredRequirements(listing.ids).map((r) => r.id));
      selected = selected.filter((r) => uncovered.has(r.id));
      const unknown = unknownRequirementIds(listing.ids);
      if (unknown.length > 0) {
        for (const id of unknown) console.error(`unknown requirement id ${id} named by: ${(listing.ids.get(id) ?? []).join('; ')}`);
        exitCode = 1;
      }
      coverageNote =
        listing.status === 'ok'
          ? `${listing.tests} suite tests reference ${listing.ids.size} requirement ids`
          : `no suite tests yet: ${listing.note ?? listing.status}`;
    } catch (error) {
      if (!(error instanceof SuiteListingError)) throw error;
      console.error(`xs2a-conformance requirements: ${error.message}`);
      return 3;
    }
  }

  if (options.json) {
    console.log(JSON.stringify(selected, null, 2));
    return exitCode;
  }
  const width = process.stdout.isTTY && process.stdout.columns ? process.stdout.columns : 100;
  if (selected.length > 0) console.log(formatTable(selected, width));
  const areas = options.area ? ` — areas: ${[...options.area].map((area) => `${area} (${AREAS[area]})`).join('; ')}` : '';
  const summary = options.uncovered
    ? `${selected.length} requirement${selected.length === 1 ? '' : 's'} no scenario checks yet (automated, or given a capability)`
    : countLine(selected);
  console.log(`\n${summary}${areas}`);
  if (coverageNote) console.log(coverageNote);
  return exitCode;
}

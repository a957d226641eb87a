/**
 * `xs2a-conformance requirements`: the requirement catalogue as a table or JSON, filtered by area, level and
 * how a requirement is tested; `--uncovered` lists the requirements a scenario could check (automated, or given a capability) that none does yet.
 *
 *   requirements [--json] [--area SIG[,PAY]] [--level MUST[,SHOULD]] [--tested-by automated|manual|needs-capability]
 *                [--uncovered]
 *
 * Exit codes: 0 listed; 1 with --uncovered when a suite names an id the catalogue lacks; 2 usage error;
 * 3 the suites could not be listed.
 */
import { SuiteListingError, listSuiteTests, unknownRequirementIds, uncoveredRequirements } from '../../spec/coverage.js';
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
import { PACKAGE_ROOT } from '../package.js';

const TESTED_BY_KINDS = ['automated', 'manual', 'needs-capability'] as const;
type TestedByKind = (typeof TESTED_BY_KINDS)[number];

const USAGE = `Usage: xs2a-conformance requirements [options]

Options:
  --json                     print the full entries as JSON
  --area A[,B...]            only these areas (${AREA_PREFIXES.join(', ')})
  --level L[,M...]           only these levels (${LEVELS.join(', ')})
  --tested-by K[,K...]       only these kinds (${TESTED_BY_KINDS.join(', ')})
  --uncovered                only requirements a scenario could check that none does yet (invariants excluded)
  -h, --help                 this text`;

export interface RequirementsOptions {
  json: boolean;
  areas?: Set<Area>;
  levels?: Set<RequirementLevel>;
  testedBy?: Set<TestedByKind>;
  uncovered: boolean;
  help: boolean;
}

class RequirementsUsageError extends Error {}

function listValue<T extends string>(flag: string, raw: string, allowed: readonly T[], normalise: (value: string) => string): Set<T> {
  const values = raw.split(',').map((value) => normalise(value.trim())).filter((value) => value !== '');
  if (values.length === 0) throw new RequirementsUsageError(`${flag} needs a value (one or more of ${allowed.join(', ')})`);
  for (const value of values) {
    if (!(allowed as readonly string[]).includes(value)) {
      throw new RequirementsUsageError(`${flag}: unknown value "${value}" (expected one or more of ${allowed.join(', ')})`);
    }
  }
  return new Set(values as T[]);
}

/** Parses the options of the command; throws with a message naming the offending flag. */
export function parseRequirementsArgs(args: readonly string[]): RequirementsOptions {
  const options: RequirementsOptions = { json: false, uncovered: false, help: false };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const flag = eq > 0 ? arg.slice(0, eq) : arg;
    const inline = eq > 0 ? arg.slice(eq + 1) : undefined;
    const value = (): string => {
      const next = inline ?? args[++i];
      if (next === undefined || (inline === undefined && next.startsWith('--'))) throw new RequirementsUsageError(`${flag} needs a value`);
      return next;
    };
    const noValue = (): void => {
      if (inline !== undefined) throw new RequirementsUsageError(`${flag} takes no value`);
    };
    switch (flag) {
      case '--json':
        noValue();
        options.json = true;
        break;
      case '--uncovered':
        noValue();
        options.uncovered = true;
        break;
      case '--area':
        options.areas = listValue(flag, value(), AREA_PREFIXES, (v) => v.toUpperCase());
        break;
      case '--level':
        options.levels = listValue(flag, value(), LEVELS, (v) => v.toUpperCase());
        break;
      case '--tested-by':
        options.testedBy = listValue(flag, value(), TESTED_BY_KINDS, (v) => v.toLowerCase());
        break;
      case '-h':
      case '--help':
        options.help = true;
        break;
      default:
        throw new RequirementsUsageError(`unknown option ${flag}`);
    }
  }
  return options;
}

export function filterRequirements(requirements: readonly Requirement[], options: RequirementsOptions): Requirement[] {
  return requirements.filter(
    (requirement) =>
      (!options.areas || options.areas.has(requirement.area)) &&
      (!options.levels || options.levels.has(requirement.level)) &&
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
    [...cells.slice(0, 4).map((cell, column) => cell.padEnd(widths[column] ?? 0)), truncate(cells[4] ?? '', statementWidth)].join('  ').trimEnd();
  return [line(header), line(widths.map((width) => '-'.repeat(width)).concat('-'.repeat(Math.min(statementWidth, 9)))), ...rows.map(line)].join('\n');
}

function countLine(requirements: readonly Requirement[]): string {
  const byLevel = LEVELS.map((level) => `${requirements.filter((r) => r.level === level).length} ${level}`).join(', ');
  const byKind = TESTED_BY_KINDS.map((kind) => `${requirements.filter((r) => testedByKind(r) === kind).length} ${kind}`).join(', ');
  return `${requirements.length} requirement${requirements.length === 1 ? '' : 's'} (${byLevel}; ${byKind})`;
}

export async function requirementsCommand(args: string[]): Promise<number> {
  let options: RequirementsOptions;
  try {
    options = parseRequirementsArgs(args);
  } catch (error) {
    if (!(error instanceof RequirementsUsageError)) throw error;
    console.error(`xs2a-conformance requirements: ${error.message}\n\n${USAGE}`);
    return 2;
  }
  if (options.help) {
    console.log(USAGE);
    return 0;
  }

  let exitCode = 0;
  // `requirements | head` closes the pipe early: that is not an error.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(exitCode);
    throw error;
  });

  let selected = filterRequirements(REQUIREMENTS, options);
  let coverageNote: string | undefined;
  if (options.uncovered) {
    try {
      const listing = await listSuiteTests({ cwd: PACKAGE_ROOT });
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
  const areas = options.areas ? ` — areas: ${[...options.areas].map((area) => `${area} (${AREAS[area]})`).join('; ')}` : '';
  const summary = options.uncovered
    ? `${selected.length} requirement${selected.length === 1 ? '' : 's'} no scenario checks yet (automated, or given a capability)`
    : countLine(selected);
  console.log(`\n${summary}${areas}`);
  if (coverageNote) console.log(coverageNote);
  return exitCode;
}

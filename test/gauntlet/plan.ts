/**
 * The gauntlet's plan, derived rather than reviewed. A census run first plays every scenario once as a TPP
 * of its own with nothing switched on, and the reference bank records which of its behaviour switches it
 * asked for that TPP (code asks a switch only where its answer changes the request: reference/switches.ts).
 * A switch a scenario never asked cannot change anything that scenario sees, so "can this scenario observe
 * this switch" is read off the census, over the whole suite:
 * - a fault runs against every scenario that declares a requirement it breaks (sensitivity: those must fail,
 *   and nothing else there) and, for precision (nothing else may fail anywhere it can be seen), against the
 *   scenarios that asked it: all of them in the precision tier, a slice that turns with every commit in the
 *   sensitivity tier (precisionSlice). A fault that refuses what every conforming request does
 *   (`refusesEveryRequest`) is seen by every scenario, and all else that fails follows from that one refusal:
 *   it runs against its declaring scenarios only;
 * - a variant runs against every scenario that asked it, alone and in "letter-of-the-specification" banks
 *   (every compatible variant at once), which must pass.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import type { GauntletRequest } from '../../lib/cli/prepare-target.js';
import type { FaultDefinition, VariantDefinition } from '../../reference/server.js';
import { excludeEachOther } from '../../reference/switches.js';

/** Scenarios that cannot run against the reference bank, and so cannot be shown to fail there (with why). */
export const NOT_RUN_AGAINST_REFERENCE: Readonly<Record<string, string>> = {};

/** What the census found: per scenario, the switches it asked. */
export type Census = ReadonlyMap<string, ReadonlySet<string>>;

export interface ScenarioDeclaration {
  scenario: string;
  /** The requirements it declares it checks. */
  checks: readonly string[];
}

/** Census profile names are `census:<scenario>` (lib/cli/prepare-target.ts). */
export function censusOf(consulted: Record<string, string[]>): Census {
  return new Map(
    Object.entries(consulted).flatMap(([name, asked]) =>
      name.startsWith('census:') ? [[name.slice('census:'.length), new Set(asked)] as const] : [],
    ),
  );
}

/**
 * The two tiers of the fault gauntlet: `sensitivity` (every `npm run check`) runs each fault against the
 * scenarios that declare what it breaks (every check shown to fail, and nothing else failing there) and a
 * slice of the others that can observe it, turning with every commit (precisionSlice); `precision` (by hand:
 * about ten thousand scenario runs) against every scenario that can observe the fault, over the whole suite.
 * Variants always run against every scenario that can observe them.
 */
export type GauntletTier = 'sensitivity' | 'precision';

/** The tier this run asks for: XS2A_GAUNTLET=precision for the whole-suite tier. */
export function gauntletTier(env: NodeJS.ProcessEnv = process.env): GauntletTier {
  return env.XS2A_GAUNTLET === 'precision' ? 'precision' : 'sensitivity';
}

/** How many of the scenarios that asked it a fault no scenario declares runs against in the sensitivity tier. */
const SENSITIVITY_SAMPLE = 6;

/**
 * Scenarios that asked a fault but do not declare what it breaks, run against it in every sensitivity run:
 * a slice of the precision tier, a different one for every commit, so that successive commits judge "nothing
 * else fails" across the whole suite, and each commit's runs repeat alike.
 */
export const PRECISION_SLICE = 1;

/**
 * What turns the precision slice: XS2A_PRECISION_SEED, else the commit checked out (the same slice on every
 * run of a commit, CI's and a developer's), else a fixed word.
 */
export function precisionSeed(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): string {
  if (env.XS2A_PRECISION_SEED) return env.XS2A_PRECISION_SEED;
  try {
    return execFileSync('git', ['rev-parse', 'HEAD'], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return 'no-commit';
  }
}

/** `size` of `candidates`, in an order the seed and the fault decide (every candidate's turn comes with some seed). */
export function precisionSlice(fault: string, candidates: readonly string[], seed: string, size = PRECISION_SLICE): string[] {
  const rank = (scenario: string) => createHash('sha256').update(`${seed}\n${fault}\n${scenario}`).digest('hex');
  return [...candidates].sort((a, b) => rank(a).localeCompare(rank(b))).slice(0, size);
}

export function derivePlan(
  faults: readonly FaultDefinition[],
  variants: readonly VariantDefinition[],
  scenarios: readonly ScenarioDeclaration[],
  census: Census,
  tier: GauntletTier,
  seed = precisionSeed(),
): GauntletRequest {
  const asking = (name: string) => scenarios.filter(({ scenario }) => census.get(scenario)?.has(name)).map(({ scenario }) => scenario);
  return {
    faults: faults.map((fault) => {
      const declaring = scenarios.filter(({ checks }) => checks.some((id) => fault.breaks.includes(id))).map(({ scenario }) => scenario);
      const observing = fault.refusesEveryRequest ? [] : asking(fault.name);
      if (tier === 'precision') return { name: fault.name, scenarios: [...new Set([...declaring, ...observing])].sort() };
      // A fault of a rule judged on every exchange (ERR-01, HDR-03…) is declared by no scenario: it runs on a
      // sample of the scenarios that asked it. Then the commit's precision slice of the rest.
      const sample = declaring.length === 0 ? observing.slice(0, SENSITIVITY_SAMPLE) : [];
      const planned = new Set([...declaring, ...sample]);
      const slice = precisionSlice(
        fault.name,
        observing.filter((scenario) => !planned.has(scenario)),
        seed,
      );
      return { name: fault.name, scenarios: [...new Set([...planned, ...slice])].sort() };
    }),
    variants: [
      ...variants.map(({ name }) => ({ name, variants: [name], scenarios: asking(name) })),
      ...letterBanks(variants).map((members, i) => ({
        name: `letter-of-the-specification${i === 0 ? '' : `-${i + 1}`}`,
        variants: members,
        scenarios: [...new Set(members.flatMap(asking))].sort(),
      })),
    ],
  };
}

/**
 * Banks that take every variant they can at once: variants in name order, each into the first bank none of
 * whose members it excludes. Without exclusions that is one bank, the letter of the specification read
 * every way we know at the same time.
 */
export function letterBanks(variants: readonly VariantDefinition[]): string[][] {
  const banks: string[][] = [];
  for (const { name } of [...variants].sort((a, b) => a.name.localeCompare(b.name))) {
    const bank = banks.find((members) => members.every((member) => !excludeEachOther(member, name)));
    if (bank) bank.push(name);
    else banks.push([name]);
  }
  return banks.filter((members) => members.length > 1);
}

/**
 * The gauntlet's plan, derived rather than reviewed. A census run first plays every scenario once as a TPP
 * of its own with nothing switched on, and the reference bank records which of its behaviour switches it
 * asked for that TPP (code asks a switch only where its answer changes the request: reference/switches.ts).
 * A switch a scenario never asked cannot change anything that scenario sees, so "can this scenario observe
 * this switch" is read off the census, over the whole suite:
 * - a fault runs against every scenario that asked it (precision: nothing else may fail there), and every
 *   scenario that declares a requirement the fault breaks (sensitivity: those must fail). A fault that
 *   refuses what every conforming request does (`refusesEveryRequest`) is seen by every scenario, and all
 *   else that fails follows from that one refusal: it runs against its declaring scenarios only;
 * - a variant runs against every scenario that asked it, alone and in "letter-of-the-specification" banks
 *   (every compatible variant at once), which must pass.
 */
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
  return new Map(Object.entries(consulted).flatMap(([name, asked]) => (name.startsWith('census:') ? [[name.slice('census:'.length), new Set(asked)] as const] : [])));
}

/**
 * The two tiers of the fault gauntlet: `sensitivity` runs each fault against the scenarios that declare what
 * it breaks (every check shown to fail, and nothing else failing there); `precision` adds every scenario
 * that can observe the fault, over the whole suite. Variants always run against every scenario that can
 * observe them.
 */
export type GauntletTier = 'sensitivity' | 'precision';

/** The tier this run asks for: XS2A_GAUNTLET=precision for the whole-suite tier (CI runs it). */
export function gauntletTier(env: NodeJS.ProcessEnv = process.env): GauntletTier {
  return env.XS2A_GAUNTLET === 'precision' ? 'precision' : 'sensitivity';
}

/** How many of the scenarios that asked it a fault no scenario declares runs against in the sensitivity tier. */
const SENSITIVITY_SAMPLE = 6;

export function derivePlan(
  faults: readonly FaultDefinition[],
  variants: readonly VariantDefinition[],
  scenarios: readonly ScenarioDeclaration[],
  census: Census,
  tier: GauntletTier,
): GauntletRequest {
  const asking = (name: string) => scenarios.filter(({ scenario }) => census.get(scenario)?.has(name)).map(({ scenario }) => scenario);
  return {
    faults: faults.map((fault) => {
      const declaring = scenarios.filter(({ checks }) => checks.some((id) => fault.breaks.includes(id))).map(({ scenario }) => scenario);
      // A fault of a rule judged on every exchange (ERR-01, HDR-03…) is declared by no scenario: the sensitivity
      // tier runs it on a sample of the scenarios that asked it, the precision tier on all of them.
      const sample = declaring.length === 0 ? asking(fault.name).slice(0, SENSITIVITY_SAMPLE) : [];
      const observing = fault.refusesEveryRequest ? [] : tier === 'sensitivity' ? sample : asking(fault.name);
      return { name: fault.name, scenarios: [...new Set([...declaring, ...observing])].sort() };
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

/**
 * Which requirements the suites cover, as catalogue data: every Playwright test in suites/ carries the ids it
 * checks as tags (`{ tag: ['@SIG-04'] }`); lib/cli/suite-listing.ts lists them with Playwright, and these
 * functions read the ids against the catalogue.
 */
import { BANK_REQUIREMENTS, REQUIREMENT_ID_PATTERN, requirementById, testedByKind, type Requirement } from './requirements.js';

/** Requirement id -> titles of the tests that name it. */
export type SuiteRequirementIds = Map<string, string[]>;

/** A tag that looks like a requirement id, with or without the leading `@`; undefined otherwise. */
export function requirementIdOfTag(tag: string): string | undefined {
  const id = tag.startsWith('@') ? tag.slice(1) : tag;
  return REQUIREMENT_ID_PATTERN.test(id) ? id : undefined;
}

/**
 * Requirements a scenario could check (automated, or automated given a capability) that no suite test
 * references, nor the invariants checked on every exchange (retired ones excluded).
 */
export function uncoveredRequirements(used: ReadonlyMap<string, readonly string[]>): Requirement[] {
  // The TPP's rules are judged on its traffic, never by a scenario.
  return BANK_REQUIREMENTS.filter(
    (requirement) =>
      testedByKind(requirement) !== 'manual' && !requirement.everyExchange && !requirement.retired && !used.has(requirement.id),
  );
}

/** Ids that suite tests name but the catalogue does not have (sorted). */
export function unknownRequirementIds(used: ReadonlyMap<string, readonly string[]>): string[] {
  return [...used.keys()].filter((id) => requirementById(id) === undefined).sort();
}

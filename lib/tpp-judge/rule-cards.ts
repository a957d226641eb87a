/**
 * A TPP rule as a person reads it: its catalogue entry (id, level, statement, section) with the call that
 * exercises it, kept beside the rule (lib/tpp-judge/rules): the TPP report names it for a rule the traffic
 * never reached, `requirements ID…` shows it, and the judging sandbox can show it on a rule's page.
 */
import { TPP_REQUIREMENTS, type RequirementLevel } from '../spec/requirements.js';
import { JUDGED_RULES } from './tpp-judge.js';

export interface TppRuleCard {
  id: string;
  level: RequirementLevel;
  statement: string;
  /** Where the specification states it. */
  section: string;
  /** Whether the judge judges it on traffic (the others need what traffic does not show). */
  judged: boolean;
  /** For a judged rule, the call that exercises it; for another, why traffic cannot show it. */
  hint: string;
}

const HINTS = new Map(JUDGED_RULES.map((rule) => [rule.id, rule.hint]));

/** The card of a TPP rule of the catalogue, or undefined for an id that is none. */
export function tppRuleCard(id: string): TppRuleCard | undefined {
  const entry = TPP_REQUIREMENTS.find((requirement) => requirement.id === id);
  if (entry === undefined) return undefined;
  const hint = HINTS.get(id);
  const notJudged = entry.testedBy.startsWith('manual:')
    ? entry.testedBy.slice('manual:'.length)
    : 'the judge does not judge it on traffic';
  return {
    id,
    level: entry.level,
    statement: entry.statement,
    section: entry.section,
    judged: hint !== undefined,
    hint: hint ?? `not judged on traffic: ${notJudged}`,
  };
}

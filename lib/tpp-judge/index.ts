// The TPP side of conformance: the rules of the catalogue's TPP area judged on a TPP's own traffic, one
// exchange at a time, by the judging sandbox (reference), the judging proxy and the audit of recorded traffic.
export { TppJudge, JUDGED_RULE_IDS, interfacePath } from './tpp-judge.js';
export { tppRuleCard } from './rule-cards.js';
export type { TppRuleCard } from './rule-cards.js';
export type { ExchangeVerdict, JudgeOptions, RuleCheck } from './tpp-judge.js';
export { bodyText, requestHeader } from './observed-exchange.js';
export type { ObservedExchange } from './observed-exchange.js';
export { tppRefOf } from './tpp-attribution.js';
export type { TppRef } from './tpp-attribution.js';
export { RuleTally } from './tally.js';
export type { RuleSummary, TppSummary, EvidenceSample } from './tally.js';

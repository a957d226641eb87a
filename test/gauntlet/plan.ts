/**
 * The reviewed part of the gauntlet plan. By default a fault is run against every scenario that declares a
 * requirement the fault breaks; a fault that breaks a rule checked on every exchange (the invariants, which
 * no scenario declares) names here the scenarios that must catch it.
 */
export const SCENARIOS_FOR_FAULT: Readonly<Record<string, readonly string[]>> = {
  'error-body-missing-fields': ['SIG-04.a'],
  'error-status-as-text': ['SIG-04.a'],
  'error-body-without-code': ['SIG-04.a'],
  'error-message-not-text': ['SIG-04.a'],
  'errors-as-plain-text': ['SIG-04.a'],
  'no-request-id-echo': ['SIG-03.a'],
};

/** Scenarios that cannot run against the reference bank, and so cannot be shown to fail there (with why). */
export const NOT_RUN_AGAINST_REFERENCE: Readonly<Record<string, string>> = {};

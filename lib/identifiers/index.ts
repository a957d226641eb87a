/**
 * The domain's identifiers, one home for the bank, the fixtures, the validators and the suites (through
 * lib/fixtures): IBANs, Norwegian account numbers, BICs and national identity numbers.
 */
export { bbanFrom, isBic, isIban, norwegianIban, randomNorwegianIban } from './bank-accounts.js';
export { hasNationalIdForm, isNorwegianNationalId, randomNationalId } from './national-ids.js';
export { lookalikeIban, lookalikeNationalId, lookalikeUuid } from './lookalikes.js';

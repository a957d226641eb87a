// The SCA pages as a set the embedded bank is started with (`embedded: { pages: NAME }` in targets.yaml):
// the same authorisation steps (reference/plugins/sca-page-routes.ts), rendered by one page set or another. A second
// set with another layout, other labels and ids and an extra one-time-code step proves that the suite
// drives a bank's SCA pages only through the steps a target declares.
import { alternativePages } from './alternative-pages.js';
import { consentPage, contextPage, loginPage, messagePage } from './reference-pages.js';
import { paymentConfirmationPage } from './payment-confirmation-page.js';
import type { ScaPageSet } from './sca-page-set.js';

export const referencePages: ScaPageSet = {
  login: loginPage,
  context: contextPage,
  consent: consentPage,
  confirm: paymentConfirmationPage,
  message: messagePage,
};

export const SCA_PAGE_SETS = { reference: referencePages, alternative: alternativePages } as const satisfies Record<string, ScaPageSet>;
export type ScaPageSetName = keyof typeof SCA_PAGE_SETS;

/** The set by name; an unknown name is an error that lists the known ones. */
export function scaPageSet(name: string): ScaPageSet {
  if (!Object.hasOwn(SCA_PAGE_SETS, name))
    throw new Error(`unknown SCA page set "${name}"; known: ${Object.keys(SCA_PAGE_SETS).join(', ')}`);
  return SCA_PAGE_SETS[name as ScaPageSetName];
}

// The SCA pages as a set the embedded bank is started with (`embedded: { pages: NAME }` in targets.yaml):
// the same authorisation steps (reference/plugins/sca.ts), rendered by one page set or another. A second
// set with another layout, other labels and ids and an extra one-time-code step proves that the suite
// drives a bank's SCA pages only through the steps a target declares.
import { alternativePages } from './pages-alt.js';
import { consentPage, contextPage, loginPage, messagePage } from './pages.js';
import { paymentConfirmationPage, type PaymentsShown } from './payment-pages.js';
import type { AnyAccount, Agreement } from './state/customers.js';
import type { Authorisation } from './state/sca.js';

/**
 * What each page of the SCA flow shows. Forms post the fields the flow reads: `nationalId`, `context`
 * (PRIVATE or CORPORATE:<agreement>), `account` (repeated), `decision` (approve | reject), `code`, and
 * `action=cancel` for the PSU who gives up.
 */
export interface ScaPageSet {
  login: (error?: string) => string;
  context: (agreements: Agreement[], selected: string, error?: string) => string;
  consent: (tppName: string, accounts: AnyAccount[], consented: ReadonlySet<string>) => string;
  /** The payments being authorised, as the PSU confirms them (dynamic linking). */
  confirm: (a: Authorisation, shown: PaymentsShown) => string;
  message: (title: string, text: string) => string;
  /** An extra step after login, when the set has one: the PSU types the one-time code (shown on the page in the sandbox). */
  oneTimeCode?: (sandboxCode: string, error?: string) => string;
}

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
  if (!Object.hasOwn(SCA_PAGE_SETS, name)) throw new Error(`unknown SCA page set "${name}"; known: ${Object.keys(SCA_PAGE_SETS).join(', ')}`);
  return SCA_PAGE_SETS[name as ScaPageSetName];
}

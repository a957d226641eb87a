// What a set of SCA pages renders: one function per step of the authorisation (reference/plugins/sca-page-routes.ts
// drives the steps; a set only draws them). The reference bank's own set and the alternative one
// (named-page-sets.ts) both satisfy it.
import type { PaymentsShown } from '../services/payment-approval.js';
import type { AnyAccount, Agreement } from '../state/sandbox-data.js';
import type { Authorisation } from '../state/sca-state.js';

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

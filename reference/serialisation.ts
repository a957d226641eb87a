// Serialisation rules of the specification: amounts as strings with the currency's
// minor units, dates as YYYY-MM-DD, date-times as YYYY-MM-DDThh:mm:ss+00:00.

import { defineVariant, type TppSwitches } from './switches.js';

export interface Amount {
  amount: string;
  currency: string;
}

/** All amounts of this bank are NOK (2 minor units), kept in øre. */
export function amount(amountMinor: number, currency: string): Amount {
  const abs = Math.abs(amountMinor);
  return { amount: `${amountMinor < 0 ? '-' : ''}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`, currency };
}

/**
 * Amounts the bank reports (balances, fees, card purchases) under the variant: more fraction digits than
 * the currency's minor units, a JPY balance written with two, a fee of a tenth of an øre, a card purchase in
 * a currency outside the specification's list. The rules of the request table bind the payment request.
 */
export const reportedAmountsUnbound = defineVariant('reported-amounts-unbound', {
  description:
    'balances are written with three fraction digits ("12345.670") and carry a JPY balance of "1500.00", the payment fee is "1.005" NOK, card purchases of airlines are in BYN',
  allowedBy:
    'Limits: "amount | precision 18, scale 5, and ISO 4217 minor units | payment", and the currency list is that of the payment request ("instructedAmount.currency … one of the currency list"); for responses "Amounts are serialised as strings" and transactionFees.amount is a "string"',
  source: 'Specification, What the service does (Amounts), Payment initiation request and response, Limits',
});

/** An amount the bank reports: as `amount` writes it, or with a third fraction digit under the variant. */
export function reportedAmount(switches: TppSwitches, amountMinor: number, currency: string): Amount {
  const written = amount(amountMinor, currency);
  return switches.reads(reportedAmountsUnbound) ? { ...written, amount: `${written.amount}0` } : written;
}

export function dateTime(date: Date): string {
  return `${date.toISOString().slice(0, 19)}+00:00`;
}

export function day(date: Date): string {
  return date.toISOString().slice(0, 10);
}

export const DAY_MS = 86_400_000;

const accountLinksWithoutVerbs = defineVariant('account-links-without-verbs', {
  description: 'the links of account, card account and transaction payloads are Berlin Group links: href only, without verbs',
  allowedBy:
    '"Fields of account, balance, transaction and consent resources: not shown." The specification types Link (href and verbs) for the payment initiation response; Berlin Group writes the links of these resources as { "href": "..." }',
  source: 'Specification, Resources and their fields; Berlin Group 1.3.8, hrefType and _linksAccountDetails',
});

/**
 * A link of an account information payload, or of a 401 that asks for SCA where the spec types no Link
 * (GET being the only verb these resources have).
 */
export function resourceLink(switches: TppSwitches, href: string): { href: string; verbs?: string[] } {
  return switches.reads(accountLinksWithoutVerbs) ? { href } : { href, verbs: ['GET'] };
}

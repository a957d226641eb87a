/**
 * The payment services and products of the interface, by the path names a request uses
 * (`POST /v1/{payment-service}/{payment-product}`): the Berlin Group 1.3 services, and the products the
 * specification names (sepa-credit-transfers, domestic-norway-credit-transfers, NCBCT) with the ones this
 * interface family's portals show (xs2a-facts). The reference bank offers exactly these, and the rule
 * table (rule-table.ts) has a cell for every rule, service and product: a product or service added here
 * without its cells fails the project's tests.
 */

export const PAYMENT_SERVICES = ['payments', 'periodic-payments', 'bulk-payments'] as const;
export type PaymentService = (typeof PAYMENT_SERVICES)[number];

export const PAYMENT_PRODUCTS = [
  'sepa-credit-transfers',
  'domestic-norway-credit-transfers',
  'norwegian-cross-border-credit-transfers',
  'norwegian-domestic-payment-to-self',
] as const;
export type PaymentProduct = (typeof PAYMENT_PRODUCTS)[number];

/** Other path names a product is written with on this family's portals: the same product. */
export const PRODUCT_ALIASES: Readonly<Record<string, PaymentProduct>> = {
  'norwegian-domestic-credit-transfers': 'domestic-norway-credit-transfers',
};

/** The product a path name stands for (its own name, or the product an alias names), if any. */
export function paymentProductOf(pathName: string): PaymentProduct | undefined {
  if ((PAYMENT_PRODUCTS as readonly string[]).includes(pathName)) return pathName as PaymentProduct;
  return Object.hasOwn(PRODUCT_ALIASES, pathName) ? PRODUCT_ALIASES[pathName] : undefined;
}

/** Endpoints > payment status: details and status of a domestic transfer only once the PSU approved it. */
export const HIDDEN_BEFORE_APPROVAL: readonly PaymentProduct[] = ['domestic-norway-credit-transfers'];

/** Release 1.21.8: instant payments between the PSU's own accounts in one bank. */
export const INSTANT_TO_SELF: PaymentProduct = 'norwegian-domestic-payment-to-self';

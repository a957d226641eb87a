// Signing baskets (Berlin Group 1.3; the specification shows only the start of their
// authorisation): a basket groups payments of one TPP for one SCA. It is not atomic:
// each payment keeps its own status, and the basket reports the worst case over them.
import { randomUUID } from 'node:crypto';
import { BoundedStore, textBytes } from './bounded-store.js';
import type { Payment, TransactionStatus } from './payment-store.js';
import { DEFAULT_STORE_BOUNDS, type Bounds } from './store-bounds.js';

/** Worst first: outcomes the TPP must act on, then the least progress (catalogue BSK-14). */
const WORST_FIRST: readonly TransactionStatus[] = ['RJCT', 'CANC', 'RCVD', 'ACTC', 'ACCP', 'ACSC'];

/**
 * Where a payment stands in the worst-first order (lower is worse). A payment lacking funds (ACCP with
 * fundsAvailable false, "rejected for lack of funds") ranks with the rejections (catalogue BSK-15); with
 * `hideLackOfFunds`, after every other payment instead.
 */
export function rankOf(payment: Pick<Payment, 'status' | 'fundsAvailable'>, hideLackOfFunds = false): number {
  if (payment.status === 'ACCP' && payment.fundsAvailable === false)
    return hideLackOfFunds ? WORST_FIRST.length : WORST_FIRST.indexOf('CANC') + 0.5;
  return WORST_FIRST.indexOf(payment.status);
}

/** The status a basket reports: that of its worst payment (RCVD for none). */
export function worstOf(payments: readonly Pick<Payment, 'status' | 'fundsAvailable'>[], hideLackOfFunds = false): TransactionStatus {
  return [...payments].sort((a, b) => rankOf(a, hideLackOfFunds) - rankOf(b, hideLackOfFunds))[0]?.status ?? 'RCVD';
}

export interface Basket {
  id: string;
  tppId: string;
  paymentIds: string[];
  createdAt: Date;
  /** The authorisation started for it, once started. */
  authorisationId?: string;
}

export class Baskets {
  /** Bounded: a TPP's oldest baskets go first (store-bounds.ts). */
  private readonly byId: BoundedStore<string, Basket>;

  constructor(bounds: Bounds = DEFAULT_STORE_BOUNDS.baskets) {
    this.byId = new BoundedStore({ ...bounds, tppOf: (basket) => basket.tppId, sizeOf: (basket) => textBytes(...basket.paymentIds) });
  }

  create(tppId: string, paymentIds: string[], now: Date): Basket {
    const basket: Basket = { id: randomUUID(), tppId, paymentIds, createdAt: now };
    this.byId.set(basket.id, basket);
    return basket;
  }

  get(tppId: string, id: string): Basket | undefined {
    const basket = this.byId.get(id);
    return basket?.tppId === tppId ? basket : undefined;
  }

  /** The basket an authorisation was started for, if any. */
  forAuthorisation(tppId: string, authorisationId: string): Basket | undefined {
    return [...this.byId.values()].find((b) => b.tppId === tppId && b.authorisationId === authorisationId);
  }

  /** A basket of the TPP that holds this payment, if any. */
  holding(tppId: string, paymentId: string): Basket | undefined {
    return [...this.byId.values()].find((b) => b.tppId === tppId && b.paymentIds.includes(paymentId));
  }

  delete(basket: Basket): void {
    this.byId.delete(basket.id);
  }

  clear(): void {
    this.byId.clear();
  }
}

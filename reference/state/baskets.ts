// Signing baskets (Berlin Group 1.3; the specification shows only the start of their
// authorisation): a basket groups payments of one TPP for one SCA. It is not atomic:
// each payment keeps its own status, and the basket reports the worst case over them.
import { randomUUID } from 'node:crypto';
import { BoundedStore, textBytes } from './bounded-store.js';
import type { TransactionStatus } from './payments.js';
import { DEFAULT_STORE_BOUNDS, type Bounds } from './store-bounds.js';

/** Worst first: outcomes the TPP must act on, then the least progress (catalogue BSK-14). */
export const WORST_FIRST: readonly TransactionStatus[] = ['RJCT', 'CANC', 'RCVD', 'ACTC', 'ACCP', 'ACSC'];

export function worstOf(statuses: readonly TransactionStatus[]): TransactionStatus {
  return WORST_FIRST.find((status) => statuses.includes(status)) ?? 'RCVD';
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

  delete(basket: Basket): void {
    this.byId.delete(basket.id);
  }

  clear(): void {
    this.byId.clear();
  }
}

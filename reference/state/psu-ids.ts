// psu-id: a UUID unique per TPP and customer, stable across SCAs and sandbox resets.
// It is derived (name-based UUID of TPP identity and customer number), so the bank
// needs no table to give the same answer after a restart.
import { randomUUID } from 'node:crypto';
import type { Faults } from '../faults.js';
import { isUuid, uuidV5 } from '../ids.js';
import type { SandboxData } from './customers.js';

export type PsuIdLookup = { kind: 'malformed' } | { kind: 'unknown' } | { kind: 'known'; customerNumber: string };

export class PsuDirectory {
  /** Ids issued other than by derivation (only under faults), so they still resolve. */
  private readonly issued = new Map<string, string>();

  constructor(
    private readonly data: SandboxData,
    private readonly faults: Faults,
  ) {}

  private derive(tppId: string, customerNumber: string): string {
    return uuidV5(`psu-id:${tppId}:${customerNumber}`);
  }

  issue(tppId: string, customerNumber: string): string {
    let id = this.faults.has('psu-id-unstable') ? randomUUID() : this.derive(tppId, customerNumber);
    if (this.faults.has('psu-id-not-uuid')) id = id.replaceAll('-', '');
    if (id !== this.derive(tppId, customerNumber)) this.issued.set(`${tppId}\n${id}`, customerNumber);
    return id;
  }

  resolve(tppId: string, psuId: string): PsuIdLookup {
    const issued = this.issued.get(`${tppId}\n${psuId}`);
    if (issued !== undefined) return { kind: 'known', customerNumber: issued };
    if (!isUuid(psuId)) return { kind: 'malformed' };
    const id = psuId.toLowerCase();
    for (const customerNumber of this.data.customers.keys()) {
      if (this.derive(tppId, customerNumber) === id) return { kind: 'known', customerNumber };
    }
    return { kind: 'unknown' };
  }

  clear(): void {
    this.issued.clear();
  }
}

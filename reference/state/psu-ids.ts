// psu-id: a UUID unique per TPP and customer, stable across SCAs and sandbox resets.
// It is derived (name-based UUID of TPP identity and customer number), so the bank
// needs no table to give the same answer after a restart.
import { randomUUID } from 'node:crypto';
import { defineFault, type Faults } from '../faults.js';
import { isUuid, uuidV5 } from '../ids.js';
import type { SandboxData } from './customers.js';

const psuIdUnstable = defineFault('psu-id-unstable', {
  description: 'the SCA redirect carries a new psu-id at every SCA',
  breaks: ['PSU-03'],
});
const psuIdNotUuid = defineFault('psu-id-not-uuid', {
  description: 'the SCA redirect carries a psu-id that is not a UUID',
  breaks: ['PSU-01', 'EVT-03'],
});

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
    let id = this.faults.on(psuIdUnstable, tppId) ? randomUUID() : this.derive(tppId, customerNumber);
    if (this.faults.on(psuIdNotUuid, tppId)) id = id.replaceAll('-', '');
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

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

const psuIdSharedAcrossTpps = defineFault('psu-id-shared-across-tpps', {
  description: 'a PSU has one psu-id for every TPP: the redirect carries the psu-id last issued to that PSU at any TPP',
  breaks: ['PSU-02'],
});
const foreignPsuIdHonoured = defineFault('foreign-psu-id-honoured', {
  description: "a psu-id issued to another TPP is honoured: it names that PSU for this TPP too",
  breaks: ['PSU-06'],
});

export type PsuIdLookup = { kind: 'malformed' } | { kind: 'unknown' } | { kind: 'known'; customerNumber: string };

export class PsuDirectory {
  /** Ids issued other than by derivation (only under faults), so they still resolve. */
  private readonly issued = new Map<string, string>();
  /** The psu-id last issued per customer, at whichever TPP (what a bank with one id per PSU would hand out). */
  private readonly lastIssued = new Map<string, string>();
  /** Every psu-id issued, at whichever TPP, to its customer (what a bank that ignores the TPP would look up). */
  private readonly issuedAnywhere = new Map<string, string>();

  constructor(
    private readonly data: SandboxData,
    private readonly faults: Faults,
  ) {}

  private derive(tppId: string, customerNumber: string): string {
    return uuidV5(`psu-id:${tppId}:${customerNumber}`);
  }

  issue(tppId: string, customerNumber: string): string {
    let id = this.faults.on(psuIdUnstable, tppId) ? randomUUID() : this.derive(tppId, customerNumber);
    if (this.faults.on(psuIdSharedAcrossTpps, tppId)) id = this.lastIssued.get(customerNumber) ?? id;
    if (this.faults.on(psuIdNotUuid, tppId)) id = id.replaceAll('-', '');
    if (id !== this.derive(tppId, customerNumber)) this.issued.set(`${tppId}\n${id}`, customerNumber);
    this.lastIssued.set(customerNumber, id);
    this.issuedAnywhere.set(id.toLowerCase(), customerNumber);
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
    const foreign = this.faults.on(foreignPsuIdHonoured, tppId) ? this.issuedAnywhere.get(id) : undefined;
    return foreign === undefined ? { kind: 'unknown' } : { kind: 'known', customerNumber: foreign };
  }

  clear(): void {
    this.issued.clear();
    this.lastIssued.clear();
    this.issuedAnywhere.clear();
  }
}

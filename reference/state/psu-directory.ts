// psu-id: a UUID unique per TPP and customer, stable across SCAs and sandbox resets.
// It is derived (a UUID of TPP identity and customer number keyed with a secret of the
// bank, reference/ids.ts keyedUuid), so the bank needs no table, and nobody without the
// secret can work out a PSU's id at a TPP from public values.
import { isUuid, keyedUuid } from '../ids.js';
import type { SandboxData } from './sandbox-data.js';

export type PsuIdLookup = { kind: 'malformed' } | { kind: 'unknown' } | { kind: 'known'; customerNumber: string };

export class PsuDirectory {
  /** Ids issued other than by derivation (a bank that issues them otherwise: reference/services/sca-answers.ts), so they still resolve. */
  private readonly issued = new Map<string, string>();
  /** The psu-id last issued per customer, at whichever TPP (what a bank with one id per PSU would hand out). */
  private readonly lastIssued = new Map<string, string>();
  /** Every psu-id issued, at whichever TPP, to its customer (what a bank that ignores the TPP would look up). */
  private readonly issuedToAnyTpp = new Map<string, string>();
  /** Every TPP and customer a psu-id was issued for. */
  private readonly issuedTo = new Set<string>();

  /** `secret`: the bank's key for this directory's psu-ids (one per sandbox world: reference/state/tenants.ts). */
  constructor(
    private readonly data: SandboxData,
    private readonly secret: Buffer,
  ) {}

  /** The psu-id of this customer at this TPP: the same at every SCA, and at no other TPP. */
  derive(tppId: string, customerNumber: string): string {
    return keyedUuid(this.secret, `psu-id\n${tppId}\n${customerNumber}`);
  }

  /** Whether this TPP was given a psu-id for this customer before. */
  issuedBefore(tppId: string, customerNumber: string): boolean {
    return this.issuedTo.has(`${tppId}\n${customerNumber}`);
  }

  /** The psu-id last issued to this customer, at whichever TPP. */
  lastIssuedTo(customerNumber: string): string | undefined {
    return this.lastIssued.get(customerNumber);
  }

  /** Hands out `id` (the derived one unless given) as this customer's psu-id at this TPP. */
  issue(tppId: string, customerNumber: string, id = this.derive(tppId, customerNumber)): string {
    if (id !== this.derive(tppId, customerNumber)) this.issued.set(`${tppId}\n${id}`, customerNumber);
    this.issuedTo.add(`${tppId}\n${customerNumber}`);
    this.lastIssued.set(customerNumber, id);
    this.issuedToAnyTpp.set(id.toLowerCase(), customerNumber);
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

  /** The customer a psu-id was issued to at any TPP (what a bank that ignores the TPP would look up). */
  issuedAnywhere(psuId: string): string | undefined {
    return this.issuedToAnyTpp.get(psuId.toLowerCase());
  }

  clear(): void {
    this.issued.clear();
    this.lastIssued.clear();
    this.issuedToAnyTpp.clear();
    this.issuedTo.clear();
  }
}

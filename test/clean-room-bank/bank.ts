// The bank: certificate store, the per-TPP sandbox worlds, the pending SCA flows, and the
// secret from which psu-ids are derived.

import { createHash, createHmac } from 'node:crypto';
import { CertificateStore } from './certs.js';
import { World } from './model.js';
import type { ScaFlow } from './sca-flow.js';
import { seedWorld } from './seed.js';

const MAX_WORLDS = 100;
const MAX_FLOWS = 20000;

export class Bank {
  readonly certs: CertificateStore;
  readonly worlds = new Map<string, World>();
  readonly flows = new Map<string, ScaFlow>();
  private readonly secret: Buffer;

  constructor(keyPem: string, trustCaPem: string | undefined) {
    this.certs = new CertificateStore(trustCaPem);
    // psu-ids must be stable: derive them from the server key, which identifies the deployment
    this.secret = createHash('sha256').update('clean-room-bank psu-id v1\n').update(keyPem).digest();
  }

  /** A UUID (version 4 layout) derived from a label with the bank's secret. */
  derive(label: string): string {
    const h = createHmac('sha256', this.secret).update(label).digest();
    h[6] = ((h[6] ?? 0) & 0x0f) | 0x40;
    h[8] = ((h[8] ?? 0) & 0x3f) | 0x80;
    const x = h.subarray(0, 16).toString('hex');
    return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20, 32)}`;
  }

  /** The world of a TPP, created in the known state on first use. */
  worldFor(tppKey: string): World {
    let w = this.worlds.get(tppKey);
    if (w) {
      this.worlds.delete(tppKey);
      this.worlds.set(tppKey, w);
      return w;
    }
    w = new World(tppKey, (label) => this.derive(label));
    seedWorld(w);
    this.worlds.set(tppKey, w);
    while (this.worlds.size > MAX_WORLDS) {
      const oldest = this.worlds.keys().next();
      if (oldest.done) break;
      this.dropWorld(oldest.value);
    }
    return w;
  }

  private dropWorld(tppKey: string): void {
    const w = this.worlds.get(tppKey);
    this.worlds.delete(tppKey);
    for (const [id, f] of this.flows) if (f.world === w) this.flows.delete(id);
  }

  addFlow(flow: ScaFlow): void {
    this.flows.set(flow.id, flow);
    while (this.flows.size > MAX_FLOWS) {
      const oldest = this.flows.keys().next();
      if (oldest.done) break;
      this.flows.delete(oldest.value);
    }
  }
}

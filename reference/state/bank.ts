// All state of one reference bank instance, shared with the plugins as the `bank`
// decorator. Nothing is global, so several banks (with different faults) can run
// side by side in one process.
import type { Faults } from '../faults.js';
import { TestClock } from './clock.js';
import { Consents } from './consents.js';
import { UnattendedReads } from './limits.js';
import { SandboxData } from './customers.js';
import { PsuDirectory } from './psu-ids.js';
import { ScaService } from './sca.js';

export class BankState {
  readonly clock = new TestClock();
  readonly data = new SandboxData();
  readonly consents: Consents;
  readonly psuIds: PsuDirectory;
  readonly sca: ScaService;
  readonly unattendedReads = new UnattendedReads();

  /** Known once the server listens (the port may be chosen by the system). */
  baseUrl = '';

  constructor(readonly faults: Faults) {
    this.consents = new Consents(this.data, faults);
    this.psuIds = new PsuDirectory(this.data, faults);
    this.sca = new ScaService(this.clock, this.psuIds, faults, () => this.baseUrl);
  }

  /** Sandbox initialisation: the known state, and nothing else (clock included). */
  reset(): void {
    this.data.reset();
    this.consents.clear();
    this.psuIds.clear();
    this.sca.clear();
    this.unattendedReads.clear();
    this.clock.reset();
  }
}

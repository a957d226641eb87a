// Named faults: each makes the reference bank break the rules it names, so that the
// conformance suite can be shown to catch it. A fault is declared (defineFault) in
// the module whose code it breaks, and consulted at that one point.
//
// A fault is switched on for every TPP, or only for the TPPs named in its setting
// (by certificate organizationIdentifier): one bank then serves a whole gauntlet,
// each fault seen by its own TPP and by no other. A fault that breaks the bank as a
// whole (its TLS) has scope `bank` and needs a bank of its own.

export interface FaultDefinition {
  name: string;
  description: string;
  /** The catalogue requirements a TPP sees broken while the fault is on. */
  breaks: readonly string[];
  /** `tpp` (default): can be switched on per TPP. `bank`: breaks the bank for everyone. */
  scope: 'tpp' | 'bank';
}

/** What code holds to ask whether its fault is on. */
export interface Fault {
  readonly name: string;
}

const REGISTRY = new Map<string, FaultDefinition>();

export function defineFault(name: string, definition: Omit<FaultDefinition, 'name' | 'scope'> & { scope?: FaultDefinition['scope'] }): Fault {
  if (REGISTRY.has(name)) throw new Error(`fault ${name} is declared twice`);
  if (definition.breaks.length === 0) throw new Error(`fault ${name} breaks nothing`);
  REGISTRY.set(name, { name, scope: 'tpp', ...definition });
  return { name };
}

/** Every fault declared by the modules loaded so far (server.ts loads them all). */
export function declaredFaults(): FaultDefinition[] {
  return [...REGISTRY.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/** A fault to switch on: for every TPP, or for the TPPs with these organizationIdentifiers. */
export interface FaultSetting {
  name: string;
  tpps?: readonly string[];
}

/** The faults a bank instance runs with; empty for a conforming bank. */
export class Faults {
  readonly settings: readonly FaultSetting[];
  private readonly byName: ReadonlyMap<string, ReadonlySet<string> | 'all'>;

  constructor(settings: readonly (string | FaultSetting)[] = []) {
    const normalised = settings.map((s) => (typeof s === 'string' ? { name: s } : s));
    const unknown = normalised.map((s) => s.name).filter((name) => !REGISTRY.has(name));
    if (unknown.length > 0) {
      throw new Error(
        `Unknown fault${unknown.length > 1 ? 's' : ''} ${unknown.map((n) => `"${n}"`).join(', ')}. ` +
          `Known faults: ${[...REGISTRY.keys()].sort().join(', ')}`,
      );
    }
    this.settings = Object.freeze(normalised);
    const byName = new Map<string, Set<string> | 'all'>();
    for (const { name, tpps } of normalised) {
      const previous = byName.get(name);
      if (tpps === undefined || previous === 'all') byName.set(name, 'all');
      else byName.set(name, new Set([...(previous ?? []), ...tpps]));
    }
    this.byName = byName;
  }

  /** Names of the faults switched on, for whomever. */
  get names(): string[] {
    return [...this.byName.keys()];
  }

  /** Whether `fault` is on for this TPP (by organizationIdentifier; undefined when it is not known). */
  on(fault: Fault, tppId: string | undefined): boolean {
    const scope = this.byName.get(fault.name);
    if (scope === undefined) return false;
    return scope === 'all' || (tppId !== undefined && scope.has(tppId));
  }
}

// The bank's behaviour switches: every place the reference bank can behave otherwise than by default is a
// switch, declared next to the code it changes, and consulted through the request's one handle,
// `request.switches` (a TppSwitches): `request.switches.breaks(fault)` or `request.switches.reads(variant)`.
// `grep -rnE '\.(breaks|reads)\(' reference` lists every such place.
//
// A fault that only changes the shape of an answer the bank builds is declared as that change
// (`defineFault(name, { breaks, alters: { route, when, apply } })`): the route builds the bank's own body and
// one hook (plugins/body-changes.ts) applies the change, asking the fault only of the answers its `when` picks.
// `grep -rn 'alters:' reference` lists them.
//
// Two kinds, one mechanism:
// - a fault (defineFault) breaks rules of the specification: the suite must FAIL exactly the
//   requirements it names (the fault gauntlet, test/gauntlet);
// - a variant (defineVariant) is another legal reading of the specification, declared with the sentence
//   of the specification (or of Berlin Group 1.3, which it defers to) that allows it: the whole suite
//   must pass it (the latitude gauntlet). Our default behaviour is one reading among many.
//
// A switch is on for every TPP, or only for the TPPs named in its setting (by certificate
// organizationIdentifier): one bank serves a whole gauntlet, each switch seen by its own TPP and by no
// other. A switch that changes the bank as a whole (its TLS, its routing) has scope `bank` and needs a
// bank of its own.
import { distance as editDistanceOf } from 'fastest-levenshtein';

interface SwitchBase {
  name: string;
  description: string;
  /** `tpp` (default): can be switched on per TPP. `bank`: changes the bank for everyone. */
  scope: 'tpp' | 'bank';
}

export interface FaultDefinition extends SwitchBase {
  kind: 'fault';
  /** The catalogue requirements a TPP sees broken while the fault is on. */
  breaks: readonly string[];
  /**
   * Set (with why) when the fault refuses what every request of a conforming TPP does: its rule is about
   * the plain signed request itself, so every scenario sees its first request refused and what else fails
   * follows from that one cause. The gauntlet judges its precision over the scenarios that declare what it
   * breaks; over the whole suite, it is named as the cause.
   */
  refusesEveryRequest?: string;
  /** Set when all the fault does is change the body of an answer the bank builds. */
  alters?: BodyChange;
}

/** A JSON object as a route answers it. */
export type JsonBody = Record<string, unknown>;
/** What a route answers: a JSON object, or (a sandbox listing under a variant) an array. */
export type JsonAnswer = JsonBody | unknown[];

/**
 * How a fault changes the body of one kind of answer. The route answers with the bank's own body; a hook
 * (plugins/body-changes.ts) asks the fault only where `when` holds, and answers `apply(body)` while it is on.
 */
export interface BodyChange<B extends JsonAnswer = JsonBody> {
  /** The answers it may change: method and route as declared (the prefix included), e.g. `POST /v1/payments/:product`. */
  route: string | readonly string[];
  /** Of those answers, the ones it changes (by status and body): only for these is the fault asked. */
  when: (body: B, answer: { status: number }) => boolean;
  /** The changed body: a new object (the body may hold what the bank keeps). */
  apply: (body: B) => JsonAnswer;
}

export interface VariantDefinition extends SwitchBase {
  kind: 'variant';
  /** The sentence that allows the reading, quoted (or closely paraphrased) from its source. */
  allowedBy: string;
  /** Where that sentence stands: "Specification, Errors", "Berlin Group 1.3.8, ErrorCode", … */
  source: string;
  /** Variants that cannot be on together with this one (each pair is declared on one side, or both). */
  excludes: readonly string[];
}

export type SwitchDefinition = FaultDefinition | VariantDefinition;

/** What code holds to ask whether its fault is on: `request.switches.breaks(fault)`. */
export interface Fault {
  readonly kind: 'fault';
  readonly name: string;
}

/** What code holds to ask whether its variant is on: `request.switches.reads(variant)`. */
export interface Variant {
  readonly kind: 'variant';
  readonly name: string;
}

const REGISTRY = new Map<string, SwitchDefinition>();

function register(definition: SwitchDefinition): void {
  if (REGISTRY.has(definition.name)) throw new Error(`switch ${definition.name} is declared twice`);
  if (!/^[a-z0-9]+(-[a-z0-9]+)*$/.test(definition.name)) throw new Error(`switch name "${definition.name}" is not kebab-case`);
  REGISTRY.set(definition.name, definition);
}

export function defineFault<B extends JsonAnswer = JsonBody>(
  name: string,
  definition: {
    description: string;
    breaks: readonly string[];
    scope?: SwitchBase['scope'];
    refusesEveryRequest?: string;
    alters?: BodyChange<B>;
  },
): Fault {
  if (definition.breaks.length === 0) throw new Error(`fault ${name} breaks nothing`);
  const { alters, ...rest } = definition;
  register({ kind: 'fault', name, scope: 'tpp', ...rest, ...(alters ? { alters: alters as unknown as BodyChange } : {}) });
  if (alters) CHANGES_BY_ROUTE.clear();
  return { kind: 'fault', name };
}

const CHANGES_BY_ROUTE = new Map<string, readonly { fault: Fault; change: BodyChange }[]>();

/**
 * What the changes declared for this route make of a body answered with this status: each applied in the order
 * declared, its fault asked only where its `when` holds of the body as changed so far. The one place they act:
 * plugins/body-changes.ts for the routes' answers, bank-errors.ts for the error body, sca-answers.ts for the
 * 401 that asks for SCA and the redirects after it. A route that may answer an array declares changes that read one.
 */
export function applyBodyChanges(switches: TppSwitches, route: string, body: JsonAnswer, status: number): JsonAnswer {
  let changed = body;
  for (const { fault, change } of bodyChangesOf(route)) {
    if (change.when(changed as JsonBody, { status }) && switches.breaks(fault)) changed = change.apply(changed as JsonBody);
  }
  return changed;
}

/** The body changes declared for answers of this route (`METHOD /route/:param`), in the order they were declared. */
export function bodyChangesOf(route: string): readonly { fault: Fault; change: BodyChange }[] {
  let changes = CHANGES_BY_ROUTE.get(route);
  if (changes === undefined) {
    changes = [...REGISTRY.values()].flatMap((s) =>
      s.kind === 'fault' && s.alters !== undefined && [s.alters.route].flat().includes(route)
        ? [{ fault: { kind: 'fault' as const, name: s.name }, change: s.alters }]
        : [],
    );
    CHANGES_BY_ROUTE.set(route, changes);
  }
  return changes;
}

export function defineVariant(
  name: string,
  definition: { description: string; allowedBy: string; source: string; excludes?: readonly string[]; scope?: SwitchBase['scope'] },
): Variant {
  if (definition.allowedBy.trim() === '' || definition.source.trim() === '') throw new Error(`variant ${name} does not say what allows it`);
  register({ kind: 'variant', name, scope: 'tpp', excludes: [], ...definition });
  return { kind: 'variant', name };
}

/** Every fault declared by the modules loaded so far (reference/server.ts loads them all). */
export function declaredFaults(): FaultDefinition[] {
  return [...REGISTRY.values()].filter((s): s is FaultDefinition => s.kind === 'fault').sort(byName);
}

/** Every variant declared by the modules loaded so far (reference/server.ts loads them all). */
export function declaredVariants(): VariantDefinition[] {
  return [...REGISTRY.values()].filter((s): s is VariantDefinition => s.kind === 'variant').sort(byName);
}

function byName(a: { name: string }, b: { name: string }): number {
  return a.name.localeCompare(b.name);
}

/** Whether two variants exclude each other (declared on either side). */
export function excludeEachOther(a: string, b: string): boolean {
  const first = REGISTRY.get(a);
  const second = REGISTRY.get(b);
  return (first?.kind === 'variant' && first.excludes.includes(b)) || (second?.kind === 'variant' && second.excludes.includes(a));
}

/** A switch to turn on: for every TPP, or for the TPPs with these organizationIdentifiers. */
export interface SwitchSetting {
  name: string;
  tpps?: readonly string[];
}

/** A name that is no declared switch of the kind asked for; `suggestion` is the nearest declared name. */
export class UnknownSwitchError extends Error {
  override name = 'UnknownSwitchError';
  constructor(
    readonly kind: 'fault' | 'variant',
    readonly unknown: string,
    readonly suggestion: string | undefined,
  ) {
    super(
      `unknown ${kind} "${unknown}"${suggestion ? `; did you mean "${suggestion}"?` : ''} (list them with \`xs2a-conformance serve --list-${kind}s\`)`,
    );
  }
}

/**
 * The declared name of this kind nearest to `name` (edit distance), when one is near enough to be a likely typo.
 * Of names equally near, the first by name: the answer does not depend on which module declared its switch first.
 */
export function nearestSwitch(kind: 'fault' | 'variant', name: string): string | undefined {
  let best: { name: string; distance: number } | undefined;
  for (const candidate of REGISTRY.values()) {
    if (candidate.kind !== kind) continue;
    const distance = editDistanceOf(name, candidate.name);
    if (best === undefined || distance < best.distance || (distance === best.distance && candidate.name < best.name))
      best = { name: candidate.name, distance };
  }
  return best !== undefined && best.distance <= Math.max(3, Math.floor(name.length / 3)) ? best.name : undefined;
}

/**
 * The bank as one TPP meets it: which of its behaviour switches are on for that TPP. Every request gets one
 * (`request.switches`) once the signature plugin knows who claims to send it.
 */
export class TppSwitches {
  constructor(
    private readonly on: ReadonlySet<string>,
    /** When the bank keeps a census: every switch asked for this TPP (code asks one only where its answer changes the request). */
    readonly asked?: Set<string>,
  ) {}

  /** Whether this fault is on: the bank breaks the rules it names. */
  breaks(fault: Fault): boolean {
    this.asked?.add(fault.name);
    return this.on.has(fault.name);
  }

  /** Whether this variant is on: the bank takes this legal reading of the specification. */
  reads(variant: Variant): boolean {
    this.asked?.add(variant.name);
    return this.on.has(variant.name);
  }
}

/** TPPs a census tells apart at most (a gauntlet has a few thousand cases). */
const CENSUS_LIMIT = 20_000;

/** The switches one bank instance runs with; none for the default bank. */
export class BehaviourSwitches {
  readonly faults: readonly SwitchSetting[];
  readonly variants: readonly SwitchSetting[];
  private readonly forAll = new Set<string>();
  private readonly byTpp = new Map<string, Set<string>>();
  private readonly handles = new Map<string | undefined, TppSwitches>();

  /**
   * Throws UnknownSwitchError for a name that is no declared switch of its kind, and an Error for variants
   * that exclude each other. `census`: remember, per TPP, every switch asked (the gauntlet derives from it
   * which scenarios can observe which switch).
   */
  constructor(
    settings: { faults?: readonly (string | SwitchSetting)[]; variants?: readonly (string | SwitchSetting)[]; census?: boolean } = {},
  ) {
    this.faults = Object.freeze(normalise('fault', settings.faults ?? []));
    this.variants = Object.freeze(normalise('variant', settings.variants ?? []));
    for (const { name, tpps } of [...this.faults, ...this.variants]) {
      if (tpps === undefined) this.forAll.add(name);
      else for (const tpp of tpps) this.byTpp.set(tpp, (this.byTpp.get(tpp) ?? new Set()).add(name));
    }
    for (const tpp of [undefined, ...this.byTpp.keys()]) {
      const variants = [...this.onFor(tpp)].filter((name) => REGISTRY.get(name)?.kind === 'variant');
      for (const [i, a] of variants.entries()) {
        const clash = variants.slice(i + 1).find((b) => excludeEachOther(a, b));
        if (clash)
          throw new Error(`variants "${a}" and "${clash}" exclude each other: they cannot be on together${tpp ? ` for ${tpp}` : ''}`);
      }
    }
    this.census = settings.census === true;
    this.handles.set(undefined, new TppSwitches(this.forAll, this.census ? new Set() : undefined));
    // Handles of the TPPs with switches of their own are made here, from the settings: never from a request.
    for (const tpp of this.byTpp.keys()) this.handles.set(tpp, new TppSwitches(this.onFor(tpp), this.census ? new Set() : undefined));
  }

  private readonly census: boolean;

  /** Under a census: the switches asked, by TPP (organizationIdentifier; '' for requests no TPP was known for). */
  asked(): Map<string, string[]> {
    return new Map(
      [...this.handles].flatMap(([tpp, handle]) => (handle.asked ? [[tpp ?? '', [...handle.asked].sort()] as [string, string[]]] : [])),
    );
  }

  /** Names of the faults switched on, for whomever. */
  get faultNames(): string[] {
    return [...new Set(this.faults.map((s) => s.name))];
  }

  /** Names of the variants switched on, for whomever. */
  get variantNames(): string[] {
    return [...new Set(this.variants.map((s) => s.name))];
  }

  /**
   * The bank as this TPP (by organizationIdentifier; undefined when it is not known) meets it. Asked with the
   * identity a request claims, before its signature is verified (a fault may shape the refusal of its own
   * TPP's bad request), so a claim makes nothing: a TPP without switches of its own meets the whole bank's
   * handle, and only a census (a test bank's, never `serve`'s) keeps a handle per TPP, at most CENSUS_LIMIT.
   */
  forTpp(tppId: string | undefined): TppSwitches {
    const handle = this.handles.get(tppId);
    if (handle !== undefined) return handle;
    if (!this.census || this.handles.size >= CENSUS_LIMIT) return this.wholeBank;
    const counted = new TppSwitches(this.onFor(tppId), new Set());
    this.handles.set(tppId, counted);
    return counted;
  }

  /** What everyone meets: the switches on for every TPP (the only ones before a TPP is known, e.g. at the TLS handshake). */
  get wholeBank(): TppSwitches {
    return this.handles.get(undefined) as TppSwitches;
  }

  private onFor(tppId: string | undefined): Set<string> {
    return new Set([...this.forAll, ...(tppId === undefined ? [] : (this.byTpp.get(tppId) ?? []))]);
  }
}

function normalise(kind: 'fault' | 'variant', settings: readonly (string | SwitchSetting)[]): SwitchSetting[] {
  const normalised = settings.map((s) => (typeof s === 'string' ? { name: s } : s));
  assertDeclared(
    kind,
    normalised.map((s) => s.name),
  );
  return normalised;
}

/** Throws UnknownSwitchError for the first name that is no declared switch of this kind. */
export function assertDeclared(kind: 'fault' | 'variant', names: readonly string[]): void {
  const unknown = names.find((name) => REGISTRY.get(name)?.kind !== kind);
  if (unknown !== undefined) throw new UnknownSwitchError(kind, unknown, nearestSwitch(kind, unknown));
}

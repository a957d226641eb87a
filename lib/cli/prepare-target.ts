/**
 * From a targets.yaml entry to a RunTarget: interpolate it, start the embedded reference bank when asked,
 * read the CA and the TPP certificates (or generate test ones), and, for the gauntlet, give every case a
 * TPP of its own and switch the case's faults or variants on for that TPP only.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  ALL_PSD2_ROLES,
  backdatedValidity,
  generateCertificateAuthority,
  generateRsaKeyPem,
  generateTppCertificate,
  type KeyAndCertificate,
} from '../pki/index.js';
import { ConfigError } from '../targets/config-error.js';
import { interpolateTarget } from '../targets/load.js';
import { readPem } from '../targets/target-files.js';
import {
  DEFAULT_PROFILE,
  DEFAULT_TIMEOUTS,
  SECOND_PROFILE,
  WORLD_LANES,
  type GauntletCase,
  type GauntletPlan,
  type RunTarget,
  type TppProfile,
} from '../targets/run-context.js';
import type { TargetConfig } from '../targets/target-types.js';
import {
  assertDeclared,
  knownFaults,
  knownVariants,
  startReferenceBank,
  UnknownSwitchError,
  type ReferenceBank,
  type SwitchSetting,
} from '../../reference/server.js';

export interface PreparedTarget {
  target: RunTarget;
  gauntlet?: GauntletPlan;
  /** Under the gauntlet: the switches the bank was asked for each case's TPP, by case name. */
  consulted?: () => Record<string, string[]>;
  stop(): Promise<void>;
}

/**
 * What the gauntlet asks for (`run --gauntlet FILE`): faults to switch on one TPP each (and which scenarios
 * must catch each, by default those declaring what it breaks); variant cases, each a set of variants on one
 * TPP and the scenarios that must pass them; and a census, the scenarios to run once each as a TPP of its
 * own with nothing switched on, so that the bank records which switches each one asked (consulted.json).
 */
export interface GauntletRequest {
  faults?: { name: string; scenarios?: string[] }[];
  variants?: { name: string; variants: string[]; scenarios: string[] }[];
  census?: string[];
}

export async function prepareTarget(
  name: string,
  raw: TargetConfig,
  options: {
    faults: readonly string[];
    variants?: readonly string[];
    targetsDir: string;
    workDir: string;
    env: NodeJS.ProcessEnv;
    gauntlet?: GauntletRequest;
  },
): Promise<PreparedTarget> {
  const config = interpolateTarget(name, raw, options.env);
  const field = `targets.${name}`;
  const variants = options.variants ?? [];
  if ((options.faults.length || variants.length || options.gauntlet) && !config.embedded) {
    const option = options.gauntlet ? '--gauntlet' : options.faults.length ? '--inject-fault' : '--variant';
    throw new ConfigError(
      option,
      `${option === '--variant' ? 'variants' : 'faults'} can only be injected into the embedded reference bank, not "${name}"`,
    );
  }
  const embedded = typeof config.embedded === 'object' ? config.embedded : {};
  // Unknown names are usage errors that name the option (or field) and the nearest declared name.
  checkSwitchNames('fault', options.faults, '--inject-fault');
  checkSwitchNames('variant', variants, '--variant');
  checkSwitchNames('fault', embedded.faults ?? [], `${field}.embedded.faults`);
  checkSwitchNames('variant', embedded.variants ?? [], `${field}.embedded.variants`);

  // The run's keys are made side by side on libuv's thread pool (one after another, they were most of a second
  // of every run's start): the test CA's, the generated TPP's and the embedded bank's TLS key.
  const generatesTpp = !loadsOwnCertificate(config);
  const givenCa = config.tpp?.testCa;
  const keyIf = (wanted: boolean) => (wanted ? generateRsaKeyPem() : Promise.resolve(undefined));
  const [caKeyPem, tppKeyPem, serverKeyPem] = await Promise.all([
    keyIf(givenCa === undefined && (Boolean(config.embedded) || generatesTpp)),
    keyIf(generatesTpp),
    keyIf(Boolean(config.embedded)),
  ]);
  // One test CA per run issues the embedded bank's TLS certificate and every generated TPP certificate: the target's
  // own when it names one (tpp.testCa, checked with its files), else one made for the run.
  const testCa: KeyAndCertificate | undefined = givenCa
    ? {
        certificatePem: readPem(givenCa.certificate, `${field}.tpp.testCa.certificate`, options.targetsDir),
        privateKeyPem: readPem(givenCa.privateKey, `${field}.tpp.testCa.privateKey`, options.targetsDir),
      }
    : caKeyPem === undefined
      ? undefined
      : generateCertificateAuthority({
          commonName: 'xs2a-conformance test CA',
          organizationName: 'xs2a-conformance',
          countryName: 'NO',
          privateKeyPem: caKeyPem,
        });
  const tpps = readOrGenerateTpps(config, field, options.targetsDir, options.workDir, testCa, tppKeyPem);
  // [protocol] The test CA's key stays in the run's private folder, for certificate variants (untrusted, expired, roles).
  const testCaFile = join(options.workDir, 'test-ca-key.pem');
  if (testCa) writeFileSync(testCaFile, testCa.privateKeyPem, { mode: 0o600 });
  const common = {
    name,
    environment: config.environment,
    tpp: { redirectUri: config.tpp?.redirectUri ?? 'https://tpp.example/callback' },
    psus: config.psus ?? {},
    sca: config.sca ?? [],
    scaVariants: config.scaVariants ?? {},
    scaDriver: config.scaDriver ?? 'browser',
    capabilities: config.capabilities ?? [],
    paths: config.paths ?? {},
    sandbox: config.sandbox ?? {},
    deviations: config.deviations ?? [],
    timeouts: { ...DEFAULT_TIMEOUTS, ...config.timeouts },
    ...(config.concurrency === undefined ? {} : { concurrency: config.concurrency }),
    ...(testCa
      ? { testCa: { certificatePem: testCa.certificatePem, privateKeyFile: testCaFile, ...(givenCa ? { given: true as const } : {}) } }
      : {}),
  };

  if (!config.embedded) {
    const caPem = config.tls?.ca ? readPem(config.tls.ca, `${field}.tls.ca`, options.targetsDir) : undefined;
    return {
      target: {
        ...common,
        tpps,
        baseUrl: (config.baseUrl ?? '').replace(/\/$/, ''),
        embedded: false,
        faults: [],
        variants: [],
        ...(caPem ? { caPem } : {}),
      },
      stop: async () => {},
    };
  }

  const ca = testCa as KeyAndCertificate;
  const scaPages = embedded.pages;
  // [design] The embedded bank keeps a sandbox world per TPP key (reference/state/tenants.ts): a scenario that
  // changes global state (its clock, a reset) runs in a world of its own, one of a few lanes, beside the others
  // rather than alone. Each lane's key is made by the first scenario of the lane (lib/fixtures/world-lanes.ts).
  const laneKeyFiles = Array.from({ length: WORLD_LANES }, (_, i) => join(options.workDir, `world-lane-${i + 1}-key.pem`));
  // The gauntlet's TPPs hold the run's key too: the same tester, one sandbox world (and no key to generate per fault).
  const gauntlet = options.gauntlet
    ? gauntletProfiles(options.gauntlet, ca, options.workDir, readFileSync((tpps[DEFAULT_PROFILE] as TppProfile).privateKeyFile, 'utf8'))
    : undefined;
  const banks: ReferenceBank[] = [];
  const start = async (faults: (string | SwitchSetting)[], variants: (string | SwitchSetting)[] = [], tlsKeyPem?: string) => {
    // The embedded bank trusts the suite's test CA the way a bank trusts its eIDAS issuers.
    const census = gauntlet !== undefined;
    const bank = await startReferenceBank({
      port: 0,
      ca,
      faults,
      variants,
      census,
      trustedTppCaPems: [ca.certificatePem],
      ...(scaPages ? { scaPages } : {}),
      ...(tlsKeyPem ? { tlsKeyPem } : {}),
    }).catch((error: Error) => {
      throw new ConfigError(`${field}.embedded`, error.message);
    });
    banks.push(bank);
    return bank;
  };
  const stop = () => Promise.all(banks.map((bank) => bank.close())).then(() => undefined);
  try {
    const main = await start(
      [...(embedded.faults ?? []), ...options.faults, ...(gauntlet?.shared.faults ?? [])],
      [...(embedded.variants ?? []), ...variants, ...(gauntlet?.shared.variants ?? [])],
      serverKeyPem,
    );
    // A case with a switch that changes a whole bank (its TLS) gets a bank of its own, seen only by its TPP.
    const ownBanks = new Map<string, ReferenceBank>();
    for (const gauntletCase of gauntlet?.ownBank ?? []) {
      const own = await start(
        gauntletCase.kind === 'fault' ? gauntletCase.switches : [],
        gauntletCase.kind === 'fault' ? [] : gauntletCase.switches,
      );
      ownBanks.set(gauntletCase.name, own);
      const profile = gauntlet?.profiles[gauntletCase.profile];
      if (profile) Object.assign(profile, { baseUrl: own.baseUrl, caPem: own.caPem });
    }
    const consulted = () => {
      const asked = main.asked();
      const onOwnBank = (bank: ReferenceBank) => [...new Set([...bank.asked().values()].flat())].sort();
      return Object.fromEntries(
        (gauntlet?.plan.cases ?? []).map((c) => {
          const own = ownBanks.get(c.name);
          return [c.name, own ? onOwnBank(own) : (asked.get(gauntlet?.organizations[c.profile] ?? '') ?? [])];
        }),
      );
    };
    return {
      target: {
        ...common,
        tpps: { ...tpps, ...gauntlet?.profiles },
        worldLaneKeyFiles: laneKeyFiles,
        baseUrl: main.baseUrl,
        embedded: true,
        faults: main.faults.slice(),
        variants: main.variants.slice(),
        caPem: main.caPem,
      },
      ...(gauntlet ? { gauntlet: gauntlet.plan, consulted } : {}),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

function checkSwitchNames(kind: 'fault' | 'variant', names: readonly string[], where: string): void {
  try {
    assertDeclared(kind, names);
  } catch (error) {
    if (error instanceof UnknownSwitchError) throw new ConfigError(where, error.message);
    throw error;
  }
}

/** The target names its own TPP certificate and key (rather than asking for generated ones). */
function loadsOwnCertificate(config: TargetConfig): boolean {
  return Boolean(config.tpp?.certificate && config.tpp.privateKey && !config.tpp.generate);
}

/** The TPP profiles of the run: `default`, and `second` for targets with the capability second-tpp. */
function readOrGenerateTpps(
  config: TargetConfig,
  field: string,
  targetsDir: string,
  workDir: string,
  ca: KeyAndCertificate | undefined,
  generatedKeyPem: string | undefined,
): Record<string, TppProfile> {
  const tpp = config.tpp;
  const wantsSecond = config.capabilities?.includes('second-tpp') ?? false;
  if (tpp?.certificate && tpp.privateKey && loadsOwnCertificate(config)) {
    const profiles: Record<string, TppProfile> = {
      [DEFAULT_PROFILE]: loadProfile(tpp.certificate, tpp.privateKey, `${field}.tpp`, targetsDir, join(workDir, 'tpp-key.pem')),
    };
    if (tpp.second)
      profiles[SECOND_PROFILE] = loadProfile(
        tpp.second.certificate,
        tpp.second.privateKey,
        `${field}.tpp.second`,
        targetsDir,
        join(workDir, 'tpp2-key.pem'),
      );
    else if (wantsSecond)
      throw new ConfigError(`${field}.tpp.second`, 'the capability second-tpp needs a second certificate and key (tpp.second)');
    return profiles;
  }
  if (!ca) throw new Error("a generated TPP certificate needs the run's test CA");
  const organizationIdentifier = tpp?.organizationIdentifier ?? 'PSDNO-FSA-XC0001';
  const profiles: Record<string, TppProfile> = {
    [DEFAULT_PROFILE]: generatedProfile(
      ca,
      join(workDir, 'tpp-key.pem'),
      { organizationName: tpp?.organizationName ?? 'xs2a-conformance test TPP', organizationIdentifier },
      generatedKeyPem,
    ),
  };
  if (wantsSecond) {
    // [tpp-side] The embedded bank keeps each key holder in a sandbox world of its own (reference/state/tenants.ts):
    // the second TPP, which must see the PSUs the first one made, is the same tester, so it holds the same key.
    // A remote bank gets a key of its own for each TPP, as two real TPPs would have (a bank may bind a key to one TPP).
    const sameHolder = config.embedded ? readFileSync((profiles[DEFAULT_PROFILE] as TppProfile).privateKeyFile, 'utf8') : undefined;
    profiles[SECOND_PROFILE] = generatedProfile(
      ca,
      join(workDir, 'tpp2-key.pem'),
      { organizationName: 'xs2a-conformance second test TPP', organizationIdentifier: `${organizationIdentifier}-2` },
      sameHolder,
    );
  }
  return profiles;
}

function loadProfile(certificate: string, privateKey: string, field: string, baseDir: string, keyFile: string): TppProfile {
  const certificatePem = readPem(certificate, `${field}.certificate`, baseDir);
  // The key is copied to the run's private folder so workers read it from one place; it is never printed.
  writeFileSync(keyFile, readPem(privateKey, `${field}.privateKey`, baseDir), { mode: 0o600 });
  return { certificatePem, privateKeyFile: keyFile };
}

function generatedProfile(
  ca: KeyAndCertificate,
  keyFile: string,
  subject: { organizationName: string; organizationIdentifier: string },
  privateKeyPem?: string,
): TppProfile {
  const generated = generateTppCertificate(ca, {
    ...subject,
    countryName: 'NO',
    roles: [...ALL_PSD2_ROLES],
    ...backdatedValidity(),
    ...(privateKeyPem ? { privateKeyPem } : {}),
  });
  writeFileSync(keyFile, generated.privateKeyPem, { mode: 0o600 });
  return { certificatePem: generated.certificatePem, privateKeyFile: keyFile, generated: true };
}

/**
 * One TPP per gauntlet case (all holding the run's key, so one sandbox world: only the organizationIdentifier
 * must differ), the case's switches on for that TPP alone, and the plan the scenarios read.
 */
function gauntletProfiles(request: GauntletRequest, ca: KeyAndCertificate, workDir: string, sharedKey: string) {
  const faults = new Map(knownFaults().map((fault) => [fault.name, fault]));
  const wholeBankVariants = new Set(
    knownVariants()
      .filter((v) => v.scope === 'bank')
      .map((v) => v.name),
  );
  const cases: GauntletCase[] = [
    ...(request.faults ?? []).map(({ name, scenarios }) => {
      const fault = faults.get(name);
      if (!fault) throw new ConfigError('--gauntlet', `unknown fault "${name}"`);
      return {
        name: `fault:${name}`,
        kind: 'fault' as const,
        switches: [name],
        breaks: [...fault.breaks],
        ...(scenarios ? { scenarios } : {}),
      };
    }),
    ...(request.variants ?? []).map(({ name, variants, scenarios }) => {
      checkSwitchNames('variant', variants, '--gauntlet');
      return {
        name: variants.length === 1 && name === variants[0] ? `variant:${name}` : `variants:${name}`,
        kind: 'variant' as const,
        switches: [...variants],
        breaks: [],
        scenarios,
      };
    }),
    ...(request.census ?? []).map((scenario) => ({
      name: `census:${scenario}`,
      kind: 'census' as const,
      switches: [],
      breaks: [],
      scenarios: [scenario],
    })),
  ].map((c) => ({ ...c, profile: c.name }));
  const profiles: Record<string, TppProfile> = {};
  /** organizationIdentifier by profile: the bank knows TPPs by it. */
  const organizations: Record<string, string> = {};
  const shared = { faults: [] as SwitchSetting[], variants: [] as SwitchSetting[] };
  const ownBank: GauntletCase[] = [];
  cases.forEach((gauntletCase, index) => {
    const organizationIdentifier = `PSDNO-FSA-GC${String(index + 1).padStart(5, '0')}`;
    const profile = generatedProfile(
      ca,
      join(workDir, `gauntlet-${index + 1}-key.pem`),
      { organizationName: `Gauntlet TPP for ${gauntletCase.name}`, organizationIdentifier },
      sharedKey,
    );
    profiles[gauntletCase.profile] = profile;
    organizations[gauntletCase.profile] = organizationIdentifier;
    const wholeBank = gauntletCase.switches.some((name) => faults.get(name)?.scope === 'bank' || wholeBankVariants.has(name));
    if (wholeBank) ownBank.push(gauntletCase);
    else
      for (const name of gauntletCase.switches)
        shared[gauntletCase.kind === 'fault' ? 'faults' : 'variants'].push({ name, tpps: [organizationIdentifier] });
  });
  return { profiles, organizations, shared, ownBank, plan: { cases } satisfies GauntletPlan };
}

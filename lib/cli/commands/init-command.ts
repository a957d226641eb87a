/**
 * `xs2a-conformance init`: a commented target entry written into ./targets.yaml (or --targets FILE): the file
 * made when there is none, or the entry added to it without touching what is there. Its values come from the
 * flags, or from questions when the command runs in a terminal; a value not given becomes a `${VAR}` the
 * environment fills (secrets and paths stay out of the file). The SCA steps start from the reference bank's.
 * Then `doctor --target NAME` says what is still wrong, all at once.
 */
import { existsSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { isDeepStrictEqual } from 'node:util';
import { InvalidArgumentError, Option, type Command } from 'commander';
import { parseDocument } from 'yaml';
import { parseTargetsFile } from '../../targets/load.js';
import { ENVIRONMENTS, TARGET_CAPABILITIES, type Environment, type PsuConfig, type TargetCapability } from '../../targets/target-types.js';
import { oneOf, repeatable, UsageError, type CliCommand } from '../command.js';
import { SCA_STARTING_POINTS, targetEntryYaml, type ScaStartingPoint, type TargetEntry } from '../target-entry.js';

export interface InitOptions {
  target: string;
  targets: string;
  baseUrl?: string;
  environment?: Environment;
  ca?: string;
  certificate?: string;
  privateKey?: string;
  generateCertificate?: boolean;
  redirectUri?: string;
  psu: string[];
  sca?: ScaStartingPoint;
  capability: TargetCapability[];
  /** Ask nothing, even in a terminal. */
  yes?: boolean;
}

/** Asks a person for a value, showing the default; an empty answer takes it. */
export type Ask = (question: string, fallback: string) => Promise<string>;

export const initCommand: CliCommand = {
  configure(command) {
    command
      .option('--target <name>', 'the name of the new target', 'sandbox')
      .option('--targets <file>', 'the targets file to write (made when missing; added to otherwise)', 'targets.yaml')
      .option(
        '--base-url <url>',
        "the interface's root (https://…), under which /v1/accounts answers (default: ${<NAME>_BASE_URL})",
        address,
      )
      .addOption(
        new Option('--environment <env>', 'sandbox, staging or production (production gets reads only)').choices([...ENVIRONMENTS]),
      )
      .option('--ca <file>', "the CA certificate of the bank's TLS certificate, PEM (default: ${<NAME>_CA_FILE})")
      .option('--certificate <file>', "the TPP's certificate, PEM (default: ${TPP_CERT_FILE})")
      .option('--private-key <file>', "the TPP certificate's key, PEM (default: ${TPP_KEY_FILE})")
      .option('--generate-certificate', "a test TPP certificate from the suite's own CA instead (a sandbox that accepts any)")
      .option('--redirect-uri <url>', 'TPP-Redirect-URI (default: https://tpp.example/callback)', address)
      .option(
        '--psu <nationalId[:CONTEXT]>',
        'a PSU the scenarios log in as, CONTEXT PRIVATE (default) or CORPORATE (repeatable; default: ${<NAME>_PSU_ID})',
        repeatable,
        [],
      )
      .addOption(
        new Option(
          '--sca <pages>',
          "the SCA steps to start from: the reference bank's pages, its alternative ones, or a rule to fill in",
        ).choices(Object.keys(SCA_STARTING_POINTS)),
      )
      .option(
        '--capability <name>',
        'a capability the bank offers (repeatable; README: Capabilities)',
        oneOf('capability', TARGET_CAPABILITIES),
        [],
      )
      .option('-y, --yes', 'ask nothing: what no flag gives becomes a ${VAR} or a default')
      .addHelpText(
        'after',
        `
In a terminal, init asks for what no flag gives (Enter takes the default). A value not given becomes a \${VAR}
that the environment fills when the target runs, so that no secret or local path needs to be in the file.

Examples:
  $ xs2a-conformance init --target sandbox --base-url https://api.sandbox.bank.example --ca bank-ca.pem --yes
  $ xs2a-conformance doctor --target sandbox                 # what is still wrong, all at once`,
      );
  },
  run(command: Command) {
    const options = command.opts<InitOptions>();
    const asking = !options.yes && process.stdin.isTTY && process.stdout.isTTY;
    return runInit(options, asking ? terminalAsk() : undefined);
  },
};

function address(value: string): string {
  if (!/^https?:\/\/[^\s/?#]+/.test(value)) throw new InvalidArgumentError(`expected an https:// address, not "${value}"`);
  return value.replace(/\/+$/, '');
}

function terminalAsk(): Ask {
  return async (question, fallback) => {
    const terminal = createInterface({ input: process.stdin, output: process.stdout });
    try {
      const answer = (await terminal.question(`${question} [${fallback}]: `)).trim();
      return answer === '' ? fallback : answer;
    } finally {
      terminal.close();
    }
  };
}

/** `${MY_BANK}` of a target name `my-bank`. */
const variableOf = (name: string, suffix: string) => `\${${`${name}_${suffix}`.toUpperCase().replace(/[^A-Z0-9_]/g, '_')}}`;

export async function runInit(options: InitOptions, ask?: Ask): Promise<number> {
  const file = resolve(options.targets);
  const existing = existsSync(file) ? readFileSync(file, 'utf8') : undefined;
  // Read before anything is asked: a file init cannot add to is said at once.
  const before = existing === undefined ? undefined : parseTargetsFile(existing, file);
  if (!/^[A-Za-z0-9][A-Za-z0-9_-]*$/.test(options.target))
    throw new UsageError(`init: --target "${options.target}" is no target name (letters, digits, - and _)`);
  if (before && Object.hasOwn(before.targets, options.target)) {
    throw new UsageError(
      `init: ${relative(process.cwd(), file) || file} already has a target "${options.target}" (it has: ${Object.keys(before.targets).join(', ')}); give another --target`,
    );
  }
  const value = async (given: string | undefined, question: string, fallback: string) =>
    given ?? (ask ? ask(question, fallback) : fallback);
  const name = options.target;
  const baseUrl = await value(options.baseUrl, "The bank's interface root (https://…, or ${VAR})", variableOf(name, 'BASE_URL'));
  const environment = (await value(options.environment, 'Environment (sandbox, staging, production)', 'sandbox')) as Environment;
  if (!(ENVIRONMENTS as readonly string[]).includes(environment))
    throw new UsageError(`init: environment "${environment}" is none of ${ENVIRONMENTS.join(', ')}`);
  const ca = await value(options.ca, "The CA certificate of the bank's TLS certificate (PEM file)", variableOf(name, 'CA_FILE'));
  const generate = options.generateCertificate ?? false;
  const certificate = generate ? undefined : await value(options.certificate, "The TPP's certificate (PEM file)", '${TPP_CERT_FILE}');
  const privateKey = generate
    ? undefined
    : await value(options.privateKey, "The TPP certificate's private key (PEM file)", '${TPP_KEY_FILE}');
  const redirectUri = await value(options.redirectUri, 'TPP-Redirect-URI', 'https://tpp.example/callback');
  const psuGiven =
    options.psu.length > 0
      ? options.psu
      : [await value(undefined, "A PSU's national identity number (or ${VAR})", variableOf(name, 'PSU_ID'))];
  const sca = (await value(
    options.sca,
    `SCA steps to start from (${Object.keys(SCA_STARTING_POINTS).join(', ')})`,
    'reference',
  )) as ScaStartingPoint;
  if (!Object.hasOwn(SCA_STARTING_POINTS, sca))
    throw new UsageError(`init: SCA starting point "${sca}" is none of ${Object.keys(SCA_STARTING_POINTS).join(', ')}`);
  if (!/^(https:\/\/|\$\{)/.test(baseUrl))
    throw new UsageError(`init: the base URL "${baseUrl}" is neither an https:// address nor a \${VAR}`);

  const entry: TargetEntry = {
    name,
    heading: `Written by \`xs2a-conformance init\`. Check it, all of it at once: npx xs2a-conformance doctor --target ${name}`,
    baseUrl,
    environment,
    ca,
    tpp: certificate !== undefined && privateKey !== undefined ? { certificate, privateKey } : { generate: true },
    redirectUri,
    psus: psusOf(psuGiven),
    sca,
    capabilities: options.capability,
  };
  const text = withEntry(existing, entry, file);
  writeAtomically(file, text, existing === undefined ? 0o644 : statSync(file).mode & 0o777);
  const shown = relative(process.cwd(), file) || file;
  const values = [baseUrl, ca, certificate, privateKey, ...Object.values(entry.psus).map((psu) => psu.nationalId)];
  const variables = [
    ...new Set(values.flatMap((given) => [...(given ?? '').matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g)].map(([, variable]) => variable))),
  ];
  console.log(`${existing === undefined ? 'Wrote' : 'Added to'} ${shown}: target "${name}".`);
  if (variables.length > 0) console.log(`Set before a run: ${variables.join(', ')}.`);
  const missing = [ca, certificate, privateKey].filter(
    (path): path is string => path !== undefined && !path.startsWith('${') && !existsSync(resolve(dirname(file), path)),
  );
  if (missing.length > 0) console.log(`Not found (relative to ${shown}): ${missing.join(', ')}.`);
  console.log(`Next: npx xs2a-conformance doctor --target ${name}   (then: npx xs2a-conformance run --target ${name})`);
  return 0;
}

/** `13039319955`, `13039319955:CORPORATE`: the first PRIVATE PSU is `private`, the first CORPORATE one `corporate`. */
function psusOf(given: readonly string[]): Record<string, PsuConfig> {
  const psus: Record<string, PsuConfig> = {};
  for (const value of given) {
    const [nationalId = '', context = 'PRIVATE'] = value.split(':');
    if (context !== 'PRIVATE' && context !== 'CORPORATE') throw new UsageError(`init: --psu ${value}: the context is PRIVATE or CORPORATE`);
    const base = context.toLowerCase();
    let key = base;
    for (let n = 2; Object.hasOwn(psus, key); n++) key = `${base}${n}`;
    psus[key] = { nationalId, context };
  }
  return psus;
}

/**
 * The file with the entry: a new file, or the old text with the entry appended under its block `targets:`. The
 * result must read back as the old targets unchanged plus the new one; a file whose targets are written
 * otherwise (a flow map) gets the entry through the YAML document instead, its comments kept.
 */
function withEntry(existing: string | undefined, entry: TargetEntry, file: string): string {
  const block = targetEntryYaml(entry);
  if (existing === undefined) {
    return `# Targets of xs2a-conformance: npx xs2a-conformance run --target NAME (README: "targets.yaml").\n# \${VAR} is filled from the environment when its target runs.\ntargets:\n${block}`;
  }
  const before = parseTargetsFile(existing, file).targets;
  const appended = `${existing.replace(/\s*$/, '\n')}\n${block}`;
  if (keepsAll(appended, before, entry.name, file)) return appended;
  const document = parseDocument(existing);
  document.setIn(['targets', entry.name], parseDocument(`${block.replace(/^ {2}/gm, '')}`).get(entry.name, true));
  const rewritten = document.toString({ lineWidth: 0 });
  if (keepsAll(rewritten, before, entry.name, file)) return rewritten;
  throw new UsageError(
    `init: could not add the target to ${file} without changing what is there; add this under targets: by hand:\n${block}`,
  );
}

function keepsAll(text: string, before: Record<string, unknown>, name: string, file: string): boolean {
  try {
    const after = parseTargetsFile(text, file).targets;
    return Object.hasOwn(after, name) && Object.entries(before).every(([key, target]) => isDeepStrictEqual(after[key], target));
  } catch {
    return false;
  }
}

function writeAtomically(file: string, text: string, mode: number): void {
  const scratch = join(dirname(file), `.${Date.now()}-${process.pid}.targets.yaml`);
  writeFileSync(scratch, text, { mode });
  renameSync(scratch, file);
}

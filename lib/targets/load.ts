/**
 * Loading targets.yaml: parse, validate against its schema, pick one target, interpolate `${VAR}` in it.
 * Every problem is a ConfigError naming the field, which the command line turns into exit code 2.
 */
import { readFileSync } from 'node:fs';
import { Ajv, type ErrorObject } from 'ajv';
import { parseDocument } from 'yaml';
import { ConfigError, type ConfigProblem } from './config-error.js';
import { TARGETS_FILE_SCHEMA } from './targets-schema.js';
import type { TargetConfig, TargetsFile } from './target-types.js';

// validateSchema: false: the schema is checked against the meta-schema by test/targets/load.test.ts, not by
// every run of the command (compiling the meta-schema took a tenth of a second of each start).
const ajv = new Ajv({ allErrors: true, strict: true, validateSchema: false });
/** Aliases a targets file may use (a shared PSU list or TPP section needs a handful). */
const MAX_ALIAS_COUNT = 100;
const validateTargetsFile = ajv.compile<TargetsFile>(TARGETS_FILE_SCHEMA);

/** Reads and validates a targets file; the file name prefixes every message. */
export function loadTargetsFile(path: string): TargetsFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError(path, `cannot read the targets file (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  return parseTargetsFile(text, path);
}

export function parseTargetsFile(text: string, sourceName = 'targets.yaml'): TargetsFile {
  const document = parseDocument(text, { prettyErrors: true });
  const syntaxError = document.errors[0];
  if (syntaxError) {
    const where = syntaxError.linePos?.[0];
    const position = where ? `:${where.line}:${where.col}` : '';
    throw new ConfigError(`${sourceName}${position}`, `not valid YAML: ${syntaxError.message.split('\n')[0]}`);
  }
  let data: unknown;
  try {
    // An alias that expands into millions of nodes (a "billion laughs" file) is refused, not built.
    data = document.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (error) {
    throw new ConfigError(sourceName, `not a usable YAML document: ${(error as Error).message.split('\n')[0]}`);
  }
  if (!validateTargetsFile(data)) {
    const errors = validateTargetsFile.errors ?? [];
    const first = mostSpecificError(errors);
    throw new ConfigError(`${sourceName}: ${fieldOf(first)}`, describeSchemaError(first));
  }
  for (const [name, target] of Object.entries(data.targets)) checkTargetShape(name, target, sourceName);
  return data;
}

/** Rules the schema cannot phrase readably. */
function checkTargetShape(name: string, target: TargetConfig, sourceName: string): void {
  const field = `${sourceName}: targets.${name}`;
  if (target.embedded !== undefined && target.embedded !== false && target.baseUrl !== undefined) {
    throw new ConfigError(field, 'give either `embedded` or `baseUrl`, not both');
  }
  if (!target.embedded && target.baseUrl === undefined) {
    throw new ConfigError(field, 'a target needs `baseUrl` (or `embedded: true` for the reference bank)');
  }
  if (!target.embedded && !target.tpp) {
    throw new ConfigError(`${field}.tpp`, 'a remote target needs a `tpp` section (certificate and redirectUri)');
  }
  const tpp = target.tpp;
  if (tpp && !tpp.generate && (tpp.certificate === undefined) !== (tpp.privateKey === undefined)) {
    throw new ConfigError(`${field}.tpp`, '`certificate` and `privateKey` go together');
  }
  if (tpp && !tpp.generate && tpp.certificate === undefined && !target.embedded) {
    throw new ConfigError(`${field}.tpp`, 'give `certificate` and `privateKey`, or `generate: true`');
  }
}

/**
 * Picks a target by name; an unknown name lists the known ones (`constructor` is a name like any other, not a property of every object).
 */
export function selectTarget(file: TargetsFile, name: string): TargetConfig {
  const target = Object.hasOwn(file.targets, name) ? file.targets[name] : undefined;
  if (!target) {
    const known = Object.keys(file.targets).join(', ');
    throw new ConfigError('--target', `unknown target "${name}"; known targets: ${known}`);
  }
  return target;
}

/**
 * Where `${VAR}` may stand: fields that hold a secret (a PSU's identity number, a value an SCA step types),
 * a file path or PEM (the bank's CA, the TPP's certificate and key), and, as the whole value, the two
 * addresses that differ per environment. Nowhere else: an environment variable must not find its way into
 * what is sent to the bank or shown in a report (a description, a selector, a path, the environment itself).
 */
const INTERPOLABLE: readonly { field: RegExp; whole?: true }[] = [
  { field: /^baseUrl$/, whole: true },
  { field: /^tpp\.redirectUri$/, whole: true },
  { field: /^tls\.ca$/ },
  { field: /^tpp\.(?:second\.|testCa\.)?(?:certificate|privateKey)$/ },
  { field: /^psus\.[^.]+\.(?:nationalId|agreement)$/ },
  { field: /^(?:sca|scaVariants\.[^.]+)\[\d+\]\.steps\[\d+\]\.(?:fill|select)\.value$/ },
];

/** What a field whose whole value is a variable must be once replaced (its value is never shown). */
const ADDRESS_FORMS: Readonly<Record<string, RegExp>> = {
  baseUrl: /^https:\/\/[^\s/?#]+[^\s]*$/,
  'tpp.redirectUri': /^https?:\/\/[^\s/?#]+[^\s]*$/,
};

/**
 * Replaces `${VAR}` in the strings of one target (only the selected one, so a variable another target
 * needs does not break this run), in the fields INTERPOLABLE allows. `$${` writes a literal `${`. Every problem
 * of the target is found before one ConfigError names them all (every variable not set, in one message), each
 * with its field and variable, never a variable's value.
 */
export function interpolateTarget(name: string, target: TargetConfig, env: NodeJS.ProcessEnv): TargetConfig {
  const problems: ConfigProblem[] = [];
  const walk = (value: unknown, path: string): unknown => {
    if (typeof value === 'string') return interpolateField(value, path, `targets.${name}.${path}`, env, problems);
    if (Array.isArray(value)) return value.map((item, index) => walk(item, `${path}[${index}]`));
    if (value && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, walk(item, path ? `${path}.${key}` : key)]));
    }
    return value;
  };
  const interpolated = walk(target, '') as TargetConfig;
  if (problems.length > 0) throw ConfigError.of(problems, `targets.${name}`);
  return interpolated;
}

function interpolateField(value: string, path: string, field: string, env: NodeJS.ProcessEnv, problems: ConfigProblem[]): string {
  const references = [...value.matchAll(/\$(\$?)\{([^}]*)\}/g)].filter(([, escaped]) => !escaped);
  if (references.length === 0) return value.replace(/\$\$\{/g, '${');
  const rule = INTERPOLABLE.find((candidate) => candidate.field.test(path));
  if (!rule) {
    problems.push({
      field,
      detail:
        '${…} is not allowed here: environment variables may fill only secrets and paths (psus.*.nationalId and agreement, the values SCA steps type, tls.ca, tpp.certificate and privateKey, their second and testCa pairs) and, whole, baseUrl and tpp.redirectUri',
    });
    return value;
  }
  if (rule.whole && !/^\$\{[^}]*\}$/.test(value)) {
    problems.push({ field, detail: 'an environment variable here must be the whole value ("${NAME}"), not part of an address' });
    return value;
  }
  const found = problems.length;
  const replaced = interpolateString(value, field, env, problems);
  const form = ADDRESS_FORMS[path];
  if (problems.length === found && form && !form.test(replaced)) {
    problems.push({
      field,
      detail: `the value of ${references.map(([, , variable]) => variable).join(', ')} is not ${path === 'baseUrl' ? 'an https:// address' : 'an http(s):// address'} (its value is not shown)`,
    });
  }
  return replaced;
}

function interpolateString(value: string, field: string, env: NodeJS.ProcessEnv, problems: ConfigProblem[]): string {
  return value.replace(/\$(\$?)\{([^}]*)\}/g, (whole, escaped: string, variable: string) => {
    if (escaped) return whole.slice(1);
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(variable)) {
      problems.push({ field, detail: `"\${${variable}}" is not a valid environment variable reference` });
      return whole;
    }
    const found = env[variable];
    if (found === undefined || found === '') {
      problems.push({ field, detail: `environment variable ${variable} is not set`, variable });
      return whole;
    }
    return found;
  });
}

/** AJV reports one error per failed branch; the deepest one is the one a person wants to read. */
function mostSpecificError(errors: ErrorObject[]): ErrorObject {
  const sorted = [...errors].sort((a, b) => b.instancePath.split('/').length - a.instancePath.split('/').length);
  return sorted[0] ?? ({ instancePath: '', keyword: 'type', message: 'invalid', params: {}, schemaPath: '' } as ErrorObject);
}

function fieldOf(error: ErrorObject): string {
  const parts = error.instancePath
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (error.keyword === 'additionalProperties') parts.push(String(error.params.additionalProperty));
  if (error.keyword === 'required') parts.push(String(error.params.missingProperty));
  let field = '';
  for (const part of parts) field += /^\d+$/.test(part) ? `[${part}]` : field ? `.${part}` : part;
  return field || '(top level)';
}

function describeSchemaError(error: ErrorObject): string {
  switch (error.keyword) {
    case 'additionalProperties':
      return 'unknown field (check its spelling against the README)';
    case 'required':
      return 'is required';
    case 'enum':
      return `must be one of ${(error.params.allowedValues as unknown[]).join(', ')}`;
    case 'pattern':
      return `has the wrong form (expected ${error.params.pattern as string})`;
    default:
      return error.message ?? 'is invalid';
  }
}

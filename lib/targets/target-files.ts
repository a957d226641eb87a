/**
 * The files a target names: the bank's CA (tls.ca) and the TPP's certificates and keys, each a PEM file
 * relative to targets.yaml or inline PEM. Checked all at once before anything starts (every file missing or
 * not PEM, a key that is not the certificate's, a certificate out of its dates), so that a set-up is fixed in
 * one go.
 */
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { ConfigError, type ConfigProblem } from './config-error.js';
import type { TargetConfig } from './target-types.js';

/** A PEM given inline or as a file path relative to targets.yaml (`baseDir`). */
export function readPem(value: string, field: string, baseDir: string): string {
  if (value.trimStart().startsWith('-----BEGIN')) return value;
  const path = isAbsolute(value) ? value : resolve(baseDir, value);
  if (!existsSync(path)) throw new ConfigError(field, `file not found: ${path}`);
  const text = readFileSync(path, 'utf8');
  if (!text.includes('-----BEGIN')) throw new ConfigError(field, `${path} is not a PEM file`);
  return text;
}

/** Where a PEM field's value comes from, for a person: its file, or "inline PEM". */
export function pemSource(value: string, baseDir: string): string {
  return value.trimStart().startsWith('-----BEGIN') ? 'inline PEM' : isAbsolute(value) ? value : resolve(baseDir, value);
}

/** Every problem of the target's files (interpolated), none when they are all usable. */
export function targetFileProblems(name: string, config: TargetConfig, baseDir: string, now = new Date()): ConfigProblem[] {
  const field = `targets.${name}`;
  const problems: ConfigProblem[] = [];
  const read = (value: string | undefined, at: string): string | undefined => {
    if (value === undefined) return undefined;
    try {
      return readPem(value, at, baseDir);
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      problems.push(...error.problems);
      return undefined;
    }
  };
  const ca = read(config.tls?.ca, `${field}.tls.ca`);
  if (ca !== undefined && !ca.includes('-----BEGIN CERTIFICATE-----'))
    problems.push({ field: `${field}.tls.ca`, detail: `${pemSource(config.tls?.ca ?? '', baseDir)} holds no certificate` });
  const tpp = config.tpp;
  if (tpp && !tpp.generate) {
    const pairs: [string, { certificate?: string; privateKey?: string } | undefined][] = [
      [`${field}.tpp`, tpp],
      [`${field}.tpp.second`, tpp.second],
    ];
    for (const [at, pair] of pairs)
      problems.push(...pairProblems(at, read(pair?.certificate, `${at}.certificate`), read(pair?.privateKey, `${at}.privateKey`), now));
  }
  if (tpp?.testCa) {
    const at = `${field}.tpp.testCa`;
    const certificatePem = read(tpp.testCa.certificate, `${at}.certificate`);
    const found = pairProblems(at, certificatePem, read(tpp.testCa.privateKey, `${at}.privateKey`), now);
    problems.push(...found);
    const certificate = certificatePem !== undefined && found.length === 0 ? new X509Certificate(certificatePem) : undefined;
    if (certificate && !certificate.ca)
      problems.push({
        field: `${at}.certificate`,
        detail: `is not a CA certificate (basicConstraints CA:TRUE), so it issues no TPP certificate (${oneLine(certificate.subject)})`,
      });
  }
  return problems;
}

/** Throws one ConfigError naming every problem of the target's files. */
export function checkTargetFiles(name: string, config: TargetConfig, baseDir: string): void {
  const problems = targetFileProblems(name, config, baseDir);
  if (problems.length > 0) throw ConfigError.of(problems, `targets.${name}`);
}

/** A certificate and its key (a TPP's, or the test CA's): a certificate, in its dates, and the key its own. */
function pairProblems(field: string, certificatePem: string | undefined, keyPem: string | undefined, now: Date): ConfigProblem[] {
  if (certificatePem === undefined) return [];
  let certificate: X509Certificate;
  try {
    certificate = new X509Certificate(certificatePem);
  } catch (error) {
    return [{ field: `${field}.certificate`, detail: `not an X.509 certificate (${(error as Error).message})` }];
  }
  const problems: ConfigProblem[] = [];
  if (new Date(certificate.validTo) < now)
    problems.push({
      field: `${field}.certificate`,
      detail: `expired on ${new Date(certificate.validTo).toISOString().slice(0, 10)} (${oneLine(certificate.subject)})`,
    });
  if (new Date(certificate.validFrom) > now)
    problems.push({
      field: `${field}.certificate`,
      detail: `not valid before ${new Date(certificate.validFrom).toISOString().slice(0, 10)}`,
    });
  if (keyPem !== undefined) {
    try {
      if (!certificate.checkPrivateKey(createPrivateKey(keyPem)))
        problems.push({
          field: `${field}.privateKey`,
          detail: `is not the key of the certificate in ${field}.certificate (${oneLine(certificate.subject)})`,
        });
    } catch (error) {
      problems.push({ field: `${field}.privateKey`, detail: `not a private key (${(error as Error).message})` });
    }
  }
  return problems;
}

/** A distinguished name on one line (`CN=…, O=…`). */
export function oneLine(name: string): string {
  return name.split('\n').join(', ');
}

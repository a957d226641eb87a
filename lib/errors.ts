/**
 * The errors of lib/, in one catalogue, as undici's errors.js and fastify's FST_ERR_* codes: every error class of
 * lib/ extends ConformanceError and carries a stable code of ERRORS, which names its class and the exit class of
 * the command it reaches (lib/cli/program.ts): 2 usage or configuration error, 3 target unreachable or
 * infrastructure failure, 4 a run short of its gate (none yet: lib/cli/gate.ts returns it; lib/cli/command.ts
 * has the table). A code is never reused for another meaning; a message is for people and may change. The
 * classes stay beside the code that throws them, so that a parser's error is read with its parser;
 * test/architecture/error-base.test.ts keeps them here.
 *
 * An `internal` error is caught where it is thrown (a parser's, a scenario's, a request's): one that reaches the
 * command is a fault of the tool, printed with its stack. The others are the user's to act on, one line.
 */

/**
 * The exit codes an error can map to: lib/report/verdict.ts's EXIT_CODES.configurationError and infrastructureFailure, lib/cli/gate.ts's
 * GATE_NOT_MET.
 */
export type ExitClass = 2 | 3 | 4;

interface ErrorEntry {
  /** The one class that carries the code. */
  readonly class: string;
  readonly exit: ExitClass;
  /** Caught inside lib/; reaching the command is a fault of the tool. */
  readonly internal?: true;
}

export const ERRORS = {
  // What the user wrote or asked for (exit 2).
  XC_ERR_USAGE: { class: 'UsageError', exit: 2 },
  XC_ERR_CONFIG: { class: 'ConfigError', exit: 2 },
  XC_ERR_CERTIFICATE_AUTHORITY: { class: 'CertificateAuthorityError', exit: 2 },
  XC_ERR_HAR_FORMAT: { class: 'HarFormatError', exit: 2 },
  XC_ERR_PRODUCTION_REFUSAL: { class: 'ProductionRefusal', exit: 2 },
  // The target, the browser, Playwright: what the tool runs on (exit 3).
  XC_ERR_PREFLIGHT_UNREACHABLE: { class: 'PreflightUnreachableError', exit: 3 },
  XC_ERR_TARGET_UNREACHABLE: { class: 'TargetUnreachableError', exit: 3 },
  XC_ERR_BROWSER_NOT_FOUND: { class: 'BrowserNotFoundError', exit: 3 },
  XC_ERR_BROWSER_TRUST: { class: 'BrowserTrustError', exit: 3 },
  XC_ERR_SUITE_LISTING: { class: 'SuiteListingError', exit: 3 },
  // A scenario's: judged by the scenario that meets it (lib/fixtures/scenario.ts).
  XC_ERR_SCA_FLOW: { class: 'ScaFlowError', exit: 3, internal: true },
  XC_ERR_PREREQUISITE_UNMET: { class: 'PrerequisiteUnmet', exit: 3, internal: true },
  XC_ERR_FOREIGN_LINK: { class: 'ForeignLinkError', exit: 3, internal: true },
  XC_ERR_RESPONSE_NOT_JSON: { class: 'ResponseNotJsonError', exit: 3, internal: true },
  // A parser's: its caller says what the bytes were.
  XC_ERR_DER: { class: 'DerError', exit: 3, internal: true },
  XC_ERR_ZIP_FORMAT: { class: 'ZipFormatError', exit: 3, internal: true },
  XC_ERR_KEY_ID_FORMAT: { class: 'KeyIdFormatError', exit: 3, internal: true },
  XC_ERR_RFC2047: { class: 'Rfc2047Error', exit: 3, internal: true },
  XC_ERR_DISTINGUISHED_NAME: { class: 'DistinguishedNameError', exit: 3, internal: true },
  XC_ERR_SIGNATURE_FORMAT: { class: 'SignatureFormatError', exit: 3, internal: true },
  XC_ERR_SIGNING_STRING: { class: 'SigningStringError', exit: 3, internal: true },
  XC_ERR_SIGNATURE_REJECTED: { class: 'Rejection', exit: 3, internal: true },
} as const satisfies Record<string, ErrorEntry>;

export type ErrorCode = keyof typeof ERRORS;

/** The base of every error of lib/: a code of ERRORS, and the class's own name. */
export abstract class ConformanceError extends Error {
  abstract readonly code: ErrorCode;

  constructor(message?: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
  }
}

/**
 * What the command does with an error that reaches it: its exit code, and whether it is the user's to act on (one line) or a fault of the
 * tool (its stack).
 */
export function exitClassOf(error: ConformanceError): { exit: ExitClass; internal: boolean } {
  const entry: ErrorEntry = ERRORS[error.code];
  return { exit: entry.exit, internal: entry.internal ?? false };
}

// The TPP client: identity, clock, signing with deliberate defects, requests
// over undici, exchange recording.
export { TppClient } from './client.js';
export { newConnectionPool } from './connection-pool.js';
export type { TppClientOptions, TppRequest, RequestOptions } from './client.js';
export type { TppResponse } from './response.js';
export { ResponseNotJsonError, createResponse } from './response.js';
export type { RecordedExchange } from './recorded-exchange.js';
export { TppIdentity, loadTppIdentity, loadTppIdentityFromFiles } from './tpp-identity.js';
export { fixedClock } from './tpp-clock.js';
export type { Clock } from './tpp-clock.js';
export type { SigningDefect } from './signing-defects.js';
export { TargetUnreachableError, isResetBeforeAnswer } from './target-unreachable.js';
export { ProductionRefusal, productionRefusal, scaSiteRefusal } from './production-guard.js';
export type { SafetyPolicy } from './production-guard.js';
export { signRequest } from './sign-request.js';
export type { SignedRequest } from './sign-request.js';
export { HeaderFields } from './header-fields.js';
export { probeTls } from './tls-probe.js';
// The probes' generator (malformed-requests.ts, fast-check) is not here: only the run that sends probes loads it.
export { describeProbe } from './probe-request.js';
export type { ProbeOutcome, ProbeRequest, ProbeRun } from './probe-request.js';

/**
 * Conformance scopes (profiles): what a target of each kind can never offer, so that a verdict there names
 * its scope instead of waiting for the impossible (the OpenID Foundation's test plans per profile; Kubernetes'
 * conformance profiles). A sandbox holds no real PSUs and no bank's mobile app with its biometrics; a staging
 * environment holds no real PSUs either. A requirement that needs such a capability is OUT_OF_SCOPE for that
 * kind of target, named in the verdict ("CONFORMANT (sandbox scope; …)"), never a reason to withhold it; a
 * target that declares the capability all the same is judged on it.
 */
import type { Capability } from './requirements/requirement-types.js';

export type ScopeName = 'sandbox' | 'staging' | 'production';

const NEVER_OFFERED: Readonly<Record<ScopeName, readonly Capability[]>> = {
  sandbox: ['production-target', 'mobile-app'],
  staging: ['production-target'],
  production: [],
};

/** Whether no target of this kind can ever offer the capability. */
export function outOfScope(scope: ScopeName, capability: string): boolean {
  return (NEVER_OFFERED[scope] as readonly string[]).includes(capability);
}

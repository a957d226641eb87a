/** The evidence a test hands to the reporter, as one JSON attachment (already masked by the fixture). */
import type { EvidenceExchange } from './types.js';

export const EVIDENCE_ATTACHMENT = 'xs2a-evidence';

export interface EvidencePayload {
  exchanges: EvidenceExchange[];
  redirects: { url: string; pages: string[] }[];
}

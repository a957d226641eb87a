// Joyent's http-signature (dev dependency, CommonJS, no types): an independent
// draft-cavage implementation to check our signatures against.
import { createRequire } from 'node:module';

export interface JoyentParsed {
  params: { keyId: string; algorithm: string; headers: string[]; signature: string };
  signingString: string;
}

interface JoyentHttpSignature {
  parseRequest(
    request: { method: string; url: string; httpVersion: string; headers: Record<string, string | string[] | undefined> },
    options?: { headers?: string[]; clockSkew?: number; strict?: boolean },
  ): JoyentParsed;
  verifySignature(parsed: JoyentParsed, publicKeyPem: string): boolean;
}

export const joyent = createRequire(import.meta.url)('http-signature') as JoyentHttpSignature;

// HTTP message signatures per draft-cavage with the XS2A rules of the
// specification (Authentication items 3-8). Pure functions shared by the TPP
// client (signing) and the reference bank (verifying).
export { SIGNABLE_HEADERS, isSignableHeader } from './signable-headers.js';
export type { SignableHeader } from './signable-headers.js';
export { computeDigest, checkDigest } from './digest.js';
export type { DigestAlgorithm } from './digest.js';
export { buildSigningString, SigningStringError } from './signing-string.js';
export { formatSignatureHeader, parseSignatureHeader, SignatureFormatError } from './signature-header.js';
export type { SignatureParams, SignaturePart } from './signature-header.js';
export { encodeRfc2047, decodeRfc2047, needsRfc2047, Rfc2047Error } from './rfc2047.js';
export { keyIdOf, parseKeyId, sameSerial, issuerRfc2253, KeyIdFormatError } from './key-id.js';
export { sameDistinguishedName, parseDistinguishedName, DistinguishedNameError } from './distinguished-name.js';
export { formatHttpDate, parseHttpDate } from './http-date.js';
export { SIGNATURE_ALGORITHM, signRsaSha256, verifyRsaSha256 } from './rsa-sha256.js';
export { STRICT_VERIFICATION, verifySignedRequest } from './verify-request.js';
export type { IncomingRequest, VerificationFailureCode, VerifyOptions, VerificationResult, VerificationPolicy } from './verify-request.js';

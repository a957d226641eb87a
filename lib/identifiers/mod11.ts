/**
 * The weighted modulus-11 check digit that Norwegian account numbers and national identity numbers share:
 * 11 minus the weighted sum's remainder, 0 for no remainder, and none when that would be 10 (such numbers
 * are never issued).
 */
export function mod11CheckDigit(digits: string, weights: readonly number[]): number | undefined {
  const remainder = weights.reduce((sum, weight, i) => sum + weight * Number(digits[i]), 0) % 11;
  if (remainder === 0) return 0;
  return remainder === 1 ? undefined : 11 - remainder;
}

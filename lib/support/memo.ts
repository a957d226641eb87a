/**
 * A memo for values a server computes again and again from the same few inputs (a TPP sends the same
 * certificate and keyId on every request). Bounded: past `MEMO_LIMIT` entries it starts again, so a stream
 * of distinct inputs (a probe, an attacker) cannot grow it.
 */
export const MEMO_LIMIT = 1_000;

export function memoised<K, V>(memo: Map<K, V>, key: K, compute: () => V): V {
  if (memo.has(key)) return memo.get(key) as V;
  const value = compute();
  if (memo.size >= MEMO_LIMIT) memo.clear();
  memo.set(key, value);
  return value;
}

/**
 * A memo of values derived from an object (a parsed certificate, a bank), kept as long as the object is: the
 * WeakMap bounds it by itself. `make` runs once per key, whatever it returns (undefined included).
 */
export function memoisedWeak<K extends object, V>(memo: WeakMap<K, V>, key: K, make: () => V): V {
  if (memo.has(key)) return memo.get(key) as V;
  const value = make();
  memo.set(key, value);
  return value;
}

/**
 * Reads of the worker's consented PSU with a chosen x-accept-fix (or none), for comparing what a fix
 * changes. Every fix of the specification's table is a default now, so each answer must show the fixed
 * behaviour whichever way it was asked.
 */
import {
  type AccountList,
  accountsOf,
  type ConsentedPsu,
  consentServesReads,
  jsonBodyOf,
  PrerequisiteUnmet,
  type TppClient,
  type TppResponse,
} from '../../lib/fixtures/index.js';
import { PUBLISHED_FIXES } from '../../lib/spec/codelists.js';
import type { PathName } from '../../lib/spec/paths.js';

/** The values of the specification's table of implemented breaking changes (one list, in lib/spec). */
export { PUBLISHED_FIXES };
export interface FixReader {
  /** GET as the consented PSU, sending `x-accept-fix: <fix>` when given. */
  read: (path: string, fix?: string) => Promise<TppResponse>;
  /** The resourceId of the first entry of a list (`accounts`, `cardAccounts`), read without the header. */
  firstOf: (list: AccountList) => Promise<string>;
}

interface ReaderFixtures {
  newTpp: (options: { sessionId: string }) => TppClient;
  consentedPsu: () => Promise<ConsentedPsu>;
  paths: (name: PathName, parameters?: Record<string, string>) => string;
}

export async function fixReader({ newTpp, consentedPsu, paths }: ReaderFixtures): Promise<FixReader> {
  const { psuId, sessionId } = await consentedPsu();
  const tpp = newTpp({ sessionId });
  // A value the table does not publish is tried on purpose (TPP-28).
  const unpublished = (fix: string | undefined) =>
    fix !== undefined && fix.split(',').some((value) => !(PUBLISHED_FIXES as readonly string[]).includes(value.trim()));
  const read = (path: string, fix?: string) =>
    tpp.get(path, {
      headers: { 'PSU-ID': psuId, ...(fix === undefined ? {} : { 'x-accept-fix': fix }) },
      ...(unpublished(fix) ? { deliberate: 'an x-accept-fix value not published' } : {}),
    });
  // What a fix changes is seen against reads the consent serves without one.
  consentServesReads(await read(paths('accounts')));
  return {
    read,
    firstOf: async (list) => {
      const id = accountsOf(await read(paths(list)), list).find((entry) => entry.resourceId !== undefined)?.resourceId;
      if (id === undefined) throw new PrerequisiteUnmet(`the consented PSU has no entry in ${list} to read`);
      return id;
    },
  };
}

/** Every object of a JSON value, depth first (amounts, accounts and transactions wherever they sit). */
export function objectsOf(value: unknown): Record<string, unknown>[] {
  if (Array.isArray(value)) return value.flatMap(objectsOf);
  if (value === null || typeof value !== 'object') return [];
  const node = value as Record<string, unknown>;
  return [node, ...Object.values(node).flatMap(objectsOf)];
}

/** A body without the values that change from one read to the next (live date-times). */
export function stableJson(response: TppResponse): string {
  return JSON.stringify(jsonBodyOf(response) ?? null, (key, value: unknown) => (key === 'lastChangeDateTime' ? undefined : value));
}

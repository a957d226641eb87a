/**
 * What a report keeps of a scenario's exchanges, bounded: a run under a fault failed ERR-44.d's 120 robustness
 * probes, whose oversized bodies (2 MiB each, twice with the curl command) made results.json 33 MB and the page
 * as large. A body over BODY_LIMIT is kept whole in a file of the report (files/<scenario>/) and cut in
 * results.json, which names the file and the whole size; of the probes, those a reader needs are kept whole
 * (the 5xx answers, the last being fast-check's shrunk case, then one of each other answer status) and the
 * rest counted by status.
 */
import type { EvidenceExchange, ProbeCount, RecordedHttpMessage } from './results-types.js';
import { ROBUSTNESS_PROBE } from './attachments.js';

/** Characters of a body results.json and the page keep; past them it is cut, and whole in a file of the report. */
export const BODY_LIMIT = 16 * 1024;
/** Probe exchanges of a scenario kept whole. */
export const PROBES_KEPT = 5;

/** A file of the report to write: a body kept whole. */
export interface BodyFile {
  name: string;
  /** Inside the report folder. */
  path: string;
  content: string;
}

export interface BoundedExchanges {
  exchanges: EvidenceExchange[];
  probes?: ProbeCount;
  bodies: BodyFile[];
}

/** `filePrefix`: where the scenario's files go inside the report (`files/<scenario>/`, and `retry1-` for a retry). */
export function boundExchanges(exchanges: readonly EvidenceExchange[], filePrefix: string): BoundedExchanges {
  const { kept, probes } = boundProbes(exchanges);
  const bodies: BodyFile[] = [];
  const bounded = kept.map((exchange) => {
    const n = exchanges.indexOf(exchange) + 1;
    const cut = (label: 'request' | 'response', message: RecordedHttpMessage | undefined): RecordedHttpMessage | undefined => {
      if (!message?.body || message.body.length <= BODY_LIMIT) return message;
      const name = `exchange-${n}-${label}-body`;
      const path = `${filePrefix}${name}.txt`;
      bodies.push({ name, path, content: message.body });
      return { ...message, body: message.body.slice(0, BODY_LIMIT), bodyBytes: Buffer.byteLength(message.body), bodyFile: path };
    };
    const request = cut('request', exchange.request);
    const response = cut('response', exchange.response);
    return { ...exchange, ...(request ? { request } : {}), ...(response ? { response } : {}) };
  });
  return { exchanges: bounded, ...(probes ? { probes } : {}), bodies };
}

function isProbe(exchange: EvidenceExchange): boolean {
  return exchange.malformed?.startsWith(ROBUSTNESS_PROBE) ?? false;
}

function answerOf(exchange: EvidenceExchange): string {
  return exchange.response?.status === undefined ? 'no answer' : String(exchange.response.status);
}

function boundProbes(exchanges: readonly EvidenceExchange[]): { kept: readonly EvidenceExchange[]; probes?: ProbeCount } {
  const all = exchanges.filter(isProbe);
  if (all.length <= PROBES_KEPT) return { kept: exchanges };
  const serverErrors = all.filter((e) => (e.response?.status ?? 0) >= 500).reverse();
  const chosen = new Set(serverErrors.slice(0, PROBES_KEPT));
  const seen = new Set([...chosen].map(answerOf));
  for (const probe of all) {
    if (chosen.size >= PROBES_KEPT) break;
    if (!seen.has(answerOf(probe))) {
      seen.add(answerOf(probe));
      chosen.add(probe);
    }
  }
  const byStatus: Record<string, number> = {};
  for (const probe of all) byStatus[answerOf(probe)] = (byStatus[answerOf(probe)] ?? 0) + 1;
  return { kept: exchanges.filter((e) => !isProbe(e) || chosen.has(e)), probes: { sent: all.length, kept: chosen.size, byStatus } };
}

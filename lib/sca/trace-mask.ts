/**
 * What a PSU typed, taken out of a Playwright trace before it enters a report. The trace of an SCA flow
 * records every action with its parameters: `fill` with the value typed (a password, a one-time code),
 * `selectOption` with the option chosen, and a log line that repeats the value. Those are replaced by the
 * masker's tag whatever their length (a value of three characters is masked here, though too short to be
 * masked in free text); the rest of the trace is then masked like any text of the report.
 */

/** Actions whose parameters are what was typed or chosen. */
const TYPING_METHODS = new Set(['fill', 'type', 'pressSequentially', 'press', 'selectOption', 'setInputFiles']);
/** Parameters of those actions that carry the value. */
const VALUE_PARAMETERS = ['value', 'text', 'key', 'options', 'files', 'payloads'];

interface TraceEvent {
  type?: string;
  callId?: string;
  method?: string;
  params?: Record<string, unknown>;
  message?: string;
}

/** The trace's JSON lines with every typed value replaced by `hide(value)`; lines that are not JSON are kept. */
export function maskTypedValues(traceText: string, hide: (value: string) => string): string {
  const typingCalls = new Set<string>();
  return traceText
    .split('\n')
    .map((line) => {
      if (!line.includes('"callId"')) return line;
      let event: TraceEvent;
      try {
        event = JSON.parse(line) as TraceEvent;
      } catch {
        return line;
      }
      if (event.type === 'before' && event.method && TYPING_METHODS.has(event.method) && event.params && event.callId) {
        typingCalls.add(event.callId);
        for (const name of VALUE_PARAMETERS) if (name in event.params) event.params[name] = hideAll(event.params[name], hide);
        return JSON.stringify(event);
      }
      // The action's log repeats the value: `fill("…")`.
      if (event.type === 'log' && event.callId && typingCalls.has(event.callId) && typeof event.message === 'string') {
        event.message = event.message.replace(/^(\s*\w+\().*(\))\s*$/s, '$1[masked]$2');
        return JSON.stringify(event);
      }
      return line;
    })
    .join('\n');
}

/** Every string inside a parameter (a value, a list of options) hidden. */
function hideAll(value: unknown, hide: (value: string) => string): unknown {
  if (typeof value === 'string') return hide(value);
  if (Array.isArray(value)) return value.map((item) => hideAll(item, hide));
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, hideAll(item, hide)]));
  return value;
}

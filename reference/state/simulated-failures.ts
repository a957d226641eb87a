// Internal failures on demand (sandbox operation POST /v1/sandbox/failures, capability
// fault-injection): a TPP arms one failure of an operation on one of its resources, and
// the next such request fails inside the bank. Bound to the resource, so the TPP's other
// requests (another test running beside it) are never hit. Lets a TPP see how the bank reports an internal
// failure (500 SYSTEM_ERROR) without the bank having to break for real.

/** Operations that can be made to fail. */
export const FAILING_OPERATIONS = ['signing-basket-authorisation'] as const;
export type FailingOperation = (typeof FAILING_OPERATIONS)[number];

export class SimulatedFailures {
  private readonly armed = new Set<string>();

  arm(tppId: string, operation: FailingOperation, resourceId: string): void {
    this.armed.add(`${tppId}\n${operation}\n${resourceId}`);
  }

  /** Whether this request is to fail; a failure is used up by the request it fails. */
  consume(tppId: string, operation: FailingOperation, resourceId: string): boolean {
    return this.armed.delete(`${tppId}\n${operation}\n${resourceId}`);
  }

  clear(): void {
    this.armed.clear();
  }
}

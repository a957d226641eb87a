/** A target's sandbox operations: as its targets.yaml describes them, else the vendor's shape (lib/spec/sandbox-operations.ts). */
import {
  SANDBOX_OPERATIONS,
  type SandboxOperation,
  type SandboxOperationName,
  type SandboxOperationSpec,
} from '../spec/sandbox-operations.js';
import type { SandboxConfig } from './target-types.js';

/** How the target offers an operation, or undefined when it does not (`null` in targets.yaml, or no default). */
export function describedOperation(sandbox: SandboxConfig, name: SandboxOperationName): SandboxOperation | undefined {
  const described = sandbox.operations?.[name];
  if (described === null) return undefined;
  return described ?? (SANDBOX_OPERATIONS[name] as SandboxOperationSpec).default;
}

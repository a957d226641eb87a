#!/usr/bin/env node
// The command runs the TypeScript sources directly through tsx: no build step to forget.
import { register } from 'tsx/esm/api';

register();
await import('../lib/cli/main.ts');

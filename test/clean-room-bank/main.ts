// CLI: node --import tsx test/clean-room-bank/main.ts --cert SERVER_CERT.pem --key SERVER_KEY.pem
//      [--port N] [--host 127.0.0.1] [--trust-ca CA.pem]
// Prints one line of JSON, {"url":"https://127.0.0.1:PORT"}, when listening.

import { readFileSync } from 'node:fs';
import { startCleanRoomBank } from './index.js';

const USAGE = 'usage: main.ts --cert SERVER_CERT.pem --key SERVER_KEY.pem [--port N] [--host 127.0.0.1] [--trust-ca CA.pem]';

function die(message: string): never {
  process.stderr.write(`clean-room-bank: ${message}\n${USAGE}\n`);
  process.exit(2);
}

function parseArgs(argv: string[]): Record<string, string> {
  const known = new Set(['--cert', '--key', '--port', '--host', '--trust-ca']);
  const out: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    let name = arg;
    let value: string | undefined;
    const eq = arg.indexOf('=');
    if (arg.startsWith('--') && eq > 0) {
      name = arg.slice(0, eq);
      value = arg.slice(eq + 1);
    }
    if (!known.has(name)) die(`unknown argument ${arg}`);
    if (value === undefined) {
      value = argv[i + 1];
      i++;
    }
    if (value === undefined || value === '') die(`${name} needs a value`);
    if (out[name] !== undefined) die(`${name} given twice`);
    out[name] = value;
  }
  return out;
}

function readPem(path: string, what: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return die(`cannot read ${what} file ${path}`);
  }
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const certPath = args['--cert'];
  const keyPath = args['--key'];
  if (certPath === undefined || keyPath === undefined) die('--cert and --key are required');
  let port = 0;
  if (args['--port'] !== undefined) {
    if (!/^\d{1,5}$/.test(args['--port']) || Number(args['--port']) > 65535) die('--port must be a port number (0 = any free port)');
    port = Number(args['--port']);
  }
  const host = args['--host'] ?? '127.0.0.1';
  const cert = readPem(certPath, 'certificate');
  const key = readPem(keyPath, 'key');
  const trustCa = args['--trust-ca'] !== undefined ? readPem(args['--trust-ca'], 'trust CA') : undefined;
  let bank;
  try {
    bank = await startCleanRoomBank({ cert, key, port, host, ...(trustCa !== undefined ? { trustCa } : {}) });
  } catch (e) {
    die(`cannot start: ${e instanceof Error ? e.message : String(e)}`);
  }
  process.stdout.write(JSON.stringify({ url: bank.url }) + '\n');
  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    bank.close().then(
      () => process.exit(0),
      () => process.exit(0),
    );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

void main();

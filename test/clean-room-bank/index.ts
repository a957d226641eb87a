// In-process start of the clean-room bank: an HTTPS server (TLS 1.2 or higher) on the given port.

import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { Bank } from './bank.js';
import { requestListener } from './server.js';

interface CleanRoomBankOptions {
  /** server certificate, PEM */
  cert: string;
  /** server private key, PEM */
  key: string;
  /** 0 (default): any free port */
  port?: number;
  /** default 127.0.0.1 */
  host?: string;
  /** PEM of the CA (or CAs) TPP certificates must chain to; absent: any well-formed certificate */
  trustCa?: string;
}

export interface CleanRoomBank {
  url: string;
  close(): Promise<void>;
}

export async function startCleanRoomBank(options: CleanRoomBankOptions): Promise<CleanRoomBank> {
  const bank = new Bank(options.key, options.trustCa);
  const host = options.host ?? '127.0.0.1';
  let selfUrl = '';
  const server = createServer(
    {
      cert: options.cert,
      key: options.key,
      minVersion: 'TLSv1.2',
    },
    requestListener(bank, () => selfUrl),
  );
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const addr = server.address() as AddressInfo;
  const hostPart = addr.family === 'IPv6' || host.includes(':') ? `[${addr.address}]` : host;
  selfUrl = `https://${hostPart}:${addr.port}`;
  return {
    url: selfUrl,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

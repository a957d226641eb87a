/** Before any test runs: does the target answer TLS at its base URL? If not, one line and exit 3. */
import { connect } from 'node:tls';

export async function checkReachable(baseUrl: string, caPem: string | undefined, timeoutMs = 5000): Promise<void> {
  const url = new URL(baseUrl);
  const port = Number(url.port || 443);
  await new Promise<void>((resolve, reject) => {
    const socket = connect({
      host: url.hostname,
      port,
      ...(caPem ? { ca: caPem } : {}),
      servername: /^[\d.]+$/.test(url.hostname) || url.hostname.includes(':') ? undefined : url.hostname,
      minVersion: 'TLSv1.2',
      timeout: timeoutMs,
    });
    socket.once('secureConnect', () => {
      socket.end();
      resolve();
    });
    socket.once('timeout', () => {
      socket.destroy();
      reject(new Error(`no TLS answer within ${timeoutMs} ms`));
    });
    socket.once('error', (error: NodeJS.ErrnoException) => reject(new Error(error.code ?? error.message)));
  });
}

/**
 * `xs2a-conformance show-report`: headless it prints the address and serves the report until stopped; a folder without one is a usage
 * error. About 2 s.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { COMMAND_BIN, runCli } from '../support/run-cli.js';
import { scratchDir } from '../support/scratch.js';

describe('show-report', { concurrency: 2 }, () => {
  test('--no-open prints the address, serves index.html there, and stops with exit 0', async () => {
    const dir = scratchDir('xs2a-show-report-');
    writeFileSync(join(dir, 'index.html'), '<p>the report</p>');
    const child = spawn(process.execPath, [COMMAND_BIN, 'show-report', dir, '--no-open'], { stdio: ['ignore', 'pipe', 'pipe'] });
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const found = /at (http:\/\/127\.0\.0\.1:\d+\/)/.exec(out);
        if (found?.[1]) resolve(found[1]);
      });
      child.once('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
    });
    assert.equal(await (await fetch(url)).text(), '<p>the report</p>');
    child.kill('SIGTERM');
    assert.equal(await new Promise((resolve) => child.once('exit', resolve)), 0);
  });

  test('a folder without a report is a usage error (exit 2); --help exits 0', async () => {
    const missing = await runCli(['show-report', scratchDir('xs2a-empty-')]);
    assert.equal(missing.exitCode, 2);
    assert.match(missing.stderr, /show-report: no index\.html in /);
    const help = await runCli(['show-report', '--help']);
    assert.equal(help.exitCode, 0);
    assert.match(help.stdout, /--no-open/);
  });
});

/**
 * The container image definition (issue 37, item 1), read, not built: docker cannot run on the machines of the
 * project's checks. What can be told from the text: Debian's headless Chromium and certutil where the tool
 * looks first, the dependencies from the lock file without the development tools, every file the package ships
 * copied (so the image and `npm pack` cannot drift apart), the tool outside node_modules (Playwright loads its
 * TypeScript there), the command's bundle made at build, and a working folder for the bank's repository.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { PACKAGE_ROOT } from '../../lib/cli/package-root.js';

const dockerfile = readFileSync(join(PACKAGE_ROOT, 'Dockerfile'), 'utf8');
const instructions = dockerfile
  .replace(/\\\n\s*/g, ' ')
  .split('\n')
  .filter((line) => line.trim() !== '' && !line.startsWith('#'));

test("Node 20 on Debian, with Debian's headless Chromium and certutil, where the tool looks first", () => {
  assert.match(instructions[0] ?? '', /^FROM node:20-bookworm(-slim)?$/);
  assert.ok(
    instructions.some((line) =>
      /^RUN apt-get update .*apt-get install -y --no-install-recommends .*\bchromium-headless-shell\b.*\blibnss3-tools\b/.test(line),
    ),
  );
  const path = /^ENV CHROMIUM_PATH=(\S+)$/m.exec(dockerfile)?.[1];
  assert.equal(path, '/usr/bin/chromium-headless-shell', "Debian's package, the first of the tool's own places (lib/sca/browser.ts)");
  assert.match(
    readFileSync(join(PACKAGE_ROOT, 'lib', 'sca', 'browser.ts'), 'utf8'),
    /SYSTEM_CANDIDATES = \[\s*'\/usr\/bin\/chromium-headless-shell'/,
  );
});

test('the dependencies from the lock file, without the development tools; every file the package ships', () => {
  assert.ok(instructions.includes('COPY package.json package-lock.json ./'));
  assert.ok(instructions.some((line) => /^RUN npm ci --omit=dev\b/.test(line)));
  const copied = instructions
    .filter((line) => line.startsWith('COPY '))
    .flatMap((line) => line.split(/\s+/).slice(1, -1))
    .map((path) => path.replace(/\/$/, ''));
  const shipped = (JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { files: string[] }).files.map((path) =>
    path.replace(/\/$/, ''),
  );
  assert.deepEqual(
    shipped.filter((path) => !copied.includes(path)),
    [],
    'a shipped file the image lacks',
  );
});

test("the tool outside node_modules, its bundle made at build, the bank's repository as working folder", () => {
  const home = /^WORKDIR (\S+)$/m.exec(dockerfile)?.[1] ?? '';
  assert.doesNotMatch(home, /node_modules/);
  assert.ok(
    instructions.some((line) => /xs2a-conformance --version/.test(line) && line.startsWith('RUN ')),
    'the command bundle made once',
  );
  assert.equal(instructions.at(-3), 'WORKDIR /work');
  assert.equal(instructions.at(-2), 'ENTRYPOINT ["xs2a-conformance"]');
});

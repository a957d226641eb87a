/**
 * The project's import graph as the architecture tests read it: each TypeScript file's relative imports
 * (static, dynamic and re-exports), as edges between units (`lib/<folder>`, `reference`, `suites`, …).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { PACKAGE_ROOT } from '../../lib/cli/package-root.js';

/** The unit a file belongs to: `lib/<folder>`, `reference`, `suites`, `test`, or the file's top folder. */
export function unitOf(file: string): string {
  const [top, second] = file.split('/');
  return top === 'lib' && second ? `lib/${second}` : (top ?? file);
}

export function sources(dir: string): string[] {
  return readdirSync(join(PACKAGE_ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => join(dir, file));
}

export interface Edge {
  from: string;
  to: string;
  file: string;
}

/** Relative imports (static, dynamic and re-exports) of every TypeScript file, as edges between units. */
export function edges(): Edge[] {
  const out: Edge[] = [];
  for (const file of [...sources('lib'), ...sources('reference'), ...sources('suites')]) {
    const text = readFileSync(join(PACKAGE_ROOT, file), 'utf8');
    for (const match of text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)) {
      const target = relative(PACKAGE_ROOT, resolve(PACKAGE_ROOT, dirname(file), match[1] ?? ''));
      if (unitOf(target) !== unitOf(file)) out.push({ from: unitOf(file), to: unitOf(target), file });
    }
    if (unitOf(file) === 'suites') {
      for (const match of text.matchAll(/^import\s[^;]*?\sfrom\s*'([^.'][^']*)'/gm)) {
        if (!match[1]?.startsWith('node:')) out.push({ from: 'suites', to: `package ${match[1]}`, file });
      }
    }
  }
  return out;
}

/**
 * What loading `files` loads, file by file: their value imports (static, dynamic and re-exports; `import type`
 * loads nothing), followed through the project's files. Packages as `package <name>`, with a file that imports it.
 */
export function loadedBy(files: readonly string[]): { files: Set<string>; packages: Map<string, string> } {
  const seen = new Set<string>();
  const packages = new Map<string, string>();
  const pending = [...files];
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (seen.has(file)) continue;
    seen.add(file);
    const text = readFileSync(join(PACKAGE_ROOT, file), 'utf8');
    for (const match of text.matchAll(
      /^(?:import|export)\s+(?!type\s)[^;]*?\sfrom\s*'([^']+)'|^import\s*'([^']+)'|import\(\s*'([^']+)'\s*\)/gm,
    )) {
      const target = match[1] ?? match[2] ?? match[3] ?? '';
      if (target.startsWith('.'))
        pending.push(relative(PACKAGE_ROOT, resolve(PACKAGE_ROOT, dirname(file), target)).replace(/\.js$/, '.ts'));
      else if (!target.startsWith('node:') && !packages.has(`package ${target}`)) packages.set(`package ${target}`, file);
    }
  }
  return { files: seen, packages };
}

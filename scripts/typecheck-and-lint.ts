/**
 * Typecheck and lint in one process, over one TypeScript program: what `npx tsc --noEmit -p .` and then
 * `npx eslint .` report, each judged alone, for about two thirds of their CPU. Run one after the other, both
 * build the same program from tsconfig.json and type-check every file: ESLint's type-aware rules ask the
 * checker the types tsc has just computed. Here the program is built once, its diagnostics printed as tsc
 * prints them, and then handed to ESLint (typescript-eslint's `parserOptions.programs`) for the TypeScript
 * files; every other option and rule is eslint.config.js's own, so `npx eslint .` stays the reference.
 * The lint includes the format: Prettier's own check (`npm run format` writes it), as `npm run lint` runs it.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { ESLint } from 'eslint';
import ts from 'typescript';
import { scriptArguments } from './script-arguments.js';

const USAGE = `usage: node --import tsx scripts/typecheck-and-lint.ts [--results FILE]

Typecheck (tsconfig.json, as tsc --noEmit -p .) and lint (eslint.config.js, as eslint ., and Prettier's
check, as npm run lint) over one TypeScript program. Exit 0 when both are clean, 1 otherwise. --results FILE: write {"typecheck": bool, "lint": bool}
there (true: clean), for npm run check to count them as two checks.`;

/** The program of tsconfig.json, as tsc -p . builds it. */
function projectProgram(): ts.Program {
  const config = ts.getParsedCommandLineOfConfigFile(
    'tsconfig.json',
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
      },
    },
  );
  if (!config) throw new Error('tsconfig.json could not be read');
  return ts.createProgram({
    rootNames: config.fileNames,
    options: config.options,
    projectReferences: config.projectReferences,
    configFileParsingDiagnostics: config.errors,
  });
}

/** tsc's own report of the program's diagnostics; true when there are none. */
function typecheck(program: ts.Program): boolean {
  const diagnostics = ts.getPreEmitDiagnostics(program);
  const host: ts.FormatDiagnosticsHost = {
    getCanonicalFileName: (name) => name,
    getCurrentDirectory: () => process.cwd(),
    getNewLine: () => '\n',
  };
  const format = process.stdout.isTTY ? ts.formatDiagnosticsWithColorAndContext : ts.formatDiagnostics;
  if (diagnostics.length > 0)
    console.log(`${format(diagnostics, host)}\nFound ${diagnostics.length} error${diagnostics.length === 1 ? '' : 's'}.`);
  console.log(`typecheck: ${diagnostics.length === 0 ? 'clean' : `${diagnostics.length} errors`}`);
  return diagnostics.length === 0;
}

/** ESLint over the project, the TypeScript files on the program already built; true when no file has an error. */
async function lint(program: ts.Program): Promise<boolean> {
  const eslint = new ESLint({
    overrideConfig: [{ files: ['**/*.ts'], languageOptions: { parserOptions: { projectService: false, programs: [program] } } }],
  });
  const results = await eslint.lintFiles(['.']);
  const report = await (await eslint.loadFormatter('stylish')).format(results);
  if (report) console.log(report);
  const errors = results.reduce((sum, result) => sum + result.errorCount + result.fatalErrorCount, 0);
  console.log(`lint: ${errors === 0 ? 'clean' : `${errors} errors`} in ${results.length} files`);
  return errors === 0;
}

/** Prettier's check of every TypeScript and JavaScript file (.prettierrc.json, .prettierignore); true when all are formatted. */
function formatted(): boolean {
  const prettier = createRequire(import.meta.url).resolve('prettier/bin/prettier.cjs');
  const ended = spawnSync(process.execPath, [prettier, '--check', '--log-level', 'warn', '**/*.{ts,js}'], { stdio: 'inherit' });
  console.log(`format: ${ended.status === 0 ? 'clean' : 'files not formatted (npm run format writes them)'}`);
  return ended.status === 0;
}

const results = scriptArguments(USAGE, { options: { results: { type: 'string' } } }).values.results as string | undefined;
const program = projectProgram();
const clean = { typecheck: typecheck(program), lint: (await lint(program)) && formatted() };
if (results) writeFileSync(results, JSON.stringify(clean));
process.exitCode = clean.typecheck && clean.lint ? 0 : 1;

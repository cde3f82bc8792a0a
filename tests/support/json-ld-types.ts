/**
 * JSON-LD as the TypeScript compiler sees it through schema-dts (the schema.org vocabulary as
 * types): each block becomes `<json> satisfies WithContext<Its @type>` in a file that only the
 * compiler reads, so a property the vocabulary does not give that type, or a value of the wrong
 * kind, is a compile error. Returns the compiler's messages block by block (none: the block is
 * allowed).
 */
import { resolve } from 'node:path';
import ts from 'typescript';

const root = resolve(import.meta.dirname, '../..');

const libraries = new Map<string, ts.SourceFile>();

/**
 * Each block's messages apart, so that blocks that must pass and blocks that must fail are checked in
 * one program (each program checks schema-dts's types again: seconds of CPU).
 */
export function jsonLdTypeErrorsByBlock(blocks: ReadonlyArray<Record<string, unknown>>): string[][] {
  const file = resolve(root, 'tests/support/__json-ld-check__.ts');
  const lines = ["import type * as S from 'schema-dts';"];
  // the first line of each block (0-based), to give each message to its block
  const starts: number[] = [];
  blocks.forEach((block, i) => {
    starts.push(lines.length);
    const type = String(block['@type']);
    lines.push(
      ...(/^[A-Z][A-Za-z]+$/.test(type)
        ? `export const block${i} = ${JSON.stringify(block, null, 2)} satisfies S.WithContext<S.${type}>;`
        : `export const block${i}: never = ${JSON.stringify(type)}; // not a schema.org type`
      ).split('\n'),
    );
  });
  const source = lines.join('\n');
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    skipLibCheck: true,
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, language, ...rest) => {
    if (resolve(name) === file) return ts.createSourceFile(name, source, language);
    // the libraries' declarations (schema-dts's vocabulary, the standard library) parsed once a process
    let parsed = libraries.get(name);
    if (!parsed) {
      parsed = getSourceFile(name, language, ...rest);
      if (parsed) libraries.set(name, parsed);
    }
    return parsed;
  };
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (name) => resolve(name) === file || fileExists(name);
  const program = ts.createProgram([file], options, host);
  const byBlock: string[][] = blocks.map(() => []);
  for (const d of ts.getPreEmitDiagnostics(program)) {
    const line = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line : -1;
    const block = starts.findLastIndex((start) => start <= line);
    const text = `${line >= 0 ? `line ${line + 1}: ` : ''}${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
    // a message outside every block (the import) fails them all
    for (const [i, errors] of byBlock.entries()) if (block < 0 || block === i) errors.push(text);
  }
  return byBlock;
}

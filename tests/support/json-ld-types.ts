/**
 * JSON-LD as the TypeScript compiler sees it through schema-dts (the schema.org vocabulary as
 * types): each block becomes `<json> satisfies WithContext<Its @type>` in a file that only the
 * compiler reads, so a property the vocabulary does not give that type, or a value of the wrong
 * kind, is a compile error. Returns the compiler's messages (none: every block is allowed).
 */
import { resolve } from 'node:path';
import ts from 'typescript';

const root = resolve(import.meta.dirname, '../..');

const libraries = new Map<string, ts.SourceFile>();

export function jsonLdTypeErrors(blocks: ReadonlyArray<Record<string, unknown>>): string[] {
  const file = resolve(root, 'tests/support/__json-ld-check__.ts');
  const source = [
    "import type * as S from 'schema-dts';",
    ...blocks.map((block, i) => {
      const type = String(block['@type']);
      if (!/^[A-Z][A-Za-z]+$/.test(type))
        return `export const block${i}: never = ${JSON.stringify(type)}; // not a schema.org type`;
      return `export const block${i} = ${JSON.stringify(block, null, 2)} satisfies S.WithContext<S.${type}>;`;
    }),
  ].join('\n');
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
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const where =
      d.file && d.start !== undefined ? `line ${d.file.getLineAndCharacterOfPosition(d.start).line + 1}: ` : '';
    return `${where}${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
  });
}

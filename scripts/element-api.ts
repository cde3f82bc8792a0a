/**
 * Reads the public API of every element from its source: the doc comment on `defineElement(...)`
 * (description, @event, @csspart, @cssprop), the attribute schema object (names, types, allowed
 * values, defaults, doc comments) and the event detail types. dist-types/ and
 * custom-elements.json are generated from this, so the typings can never drift from the code.
 */
import { readdirSync, existsSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { THEME } from '../widgets/lib/theme-docs.ts';

export interface AttributeApi {
  name: string;
  property: string;
  kind: 'string' | 'number' | 'boolean' | 'enum' | 'url';
  values?: string[];
  default?: string | number | boolean;
  description: string;
  /** the shared schema it comes from (`...filterAttributes`), which the typings declare once */
  shared?: string;
}

export interface EventApi {
  name: string;
  description: string;
  detailType: string;
  /** interface declarations the detail type needs, printed in full */
  detailDeclaration?: string;
  detailName?: string;
}

export interface NamedDoc {
  name: string;
  description: string;
  /** CSS custom properties: the value used when the page sets none */
  default?: string;
}

export interface ElementApi {
  tag: string;
  className: string;
  module: string;
  summary: string;
  attributes: AttributeApi[];
  events: EventApi[];
  cssParts: NamedDoc[];
  cssProperties: NamedDoc[];
}

const ROOT = resolve(import.meta.dirname, '..');

/**
 * Every element reads the whole theme (widgets/lib/theme.ts); its own doc comment says what a
 * variable does there, or names variables of its own (the header's height, the footer's colours).
 */
function withTheme(own: NamedDoc[]): NamedDoc[] {
  const byName = new Map(own.map((p) => [p.name, p]));
  const theme = Object.entries(THEME).map(([name, t]) => ({
    name,
    description: byName.get(name)?.description || t.description,
    default: t.default,
  }));
  return [...theme, ...own.filter((p) => !(p.name in THEME))];
}

export function elementFiles(root = ROOT): string[] {
  const widgets = join(root, 'widgets');
  return readdirSync(widgets, { withFileTypes: true })
    .filter((d) => d.isDirectory() && d.name !== 'lib' && d.name !== 'locales')
    .map((d) => join(widgets, d.name, `${d.name}.element.ts`))
    .filter((f) => existsSync(f))
    .sort();
}

function camel(name: string): string {
  return name.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

function pascal(tag: string): string {
  const c = camel(tag);
  return c.charAt(0).toUpperCase() + c.slice(1);
}

function jsDocText(node: ts.Node): { text: string; tags: ts.JSDocTag[] } {
  const docs = (node as { jsDoc?: ts.JSDoc[] }).jsDoc ?? [];
  const doc = docs[docs.length - 1];
  if (!doc) return { text: '', tags: [] };
  return { text: ts.getTextOfJSDocComment(doc.comment)?.trim() ?? '', tags: [...(doc.tags ?? [])] };
}

function tagText(tag: ts.JSDocTag): string {
  return (ts.getTextOfJSDocComment(tag.comment) ?? '').trim();
}

/** "name - description" as written after @event / @csspart / @cssprop */
function splitNamed(text: string): NamedDoc {
  const m = /^(\S+)\s*(?:-\s*)?([\s\S]*)$/.exec(text.trim());
  return { name: m?.[1] ?? text, description: (m?.[2] ?? '').replace(/\s+/g, ' ').trim() };
}

function literalValue(node: ts.Expression): unknown {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isNumericLiteral(node)) return Number(node.text);
  if (
    ts.isPrefixUnaryExpression(node) &&
    node.operator === ts.SyntaxKind.MinusToken &&
    ts.isNumericLiteral(node.operand)
  )
    return -Number(node.operand.text);
  if (node.kind === ts.SyntaxKind.TrueKeyword) return true;
  if (node.kind === ts.SyntaxKind.FalseKeyword) return false;
  if (ts.isArrayLiteralExpression(node)) return node.elements.map((e) => literalValue(e));
  if (ts.isAsExpression(node) || ts.isSatisfiesExpression(node) || ts.isParenthesizedExpression(node))
    return literalValue(node.expression);
  return undefined;
}

function unwrap(node: ts.Expression): ts.Expression {
  while (ts.isAsExpression(node) || ts.isSatisfiesExpression(node) || ts.isParenthesizedExpression(node))
    node = node.expression;
  return node;
}

function propName(name: ts.PropertyName): string {
  return ts.isIdentifier(name) || ts.isStringLiteral(name) ? name.text : name.getText();
}

function readSchema(checker: ts.TypeChecker, obj: ts.ObjectLiteralExpression): AttributeApi[] {
  const out: AttributeApi[] = [];
  for (const prop of obj.properties) {
    // `...filterAttributes`: a schema shared through widgets/lib
    if (ts.isSpreadAssignment(prop)) {
      const inner = objectLiteralOf(checker, prop.expression);
      if (inner) out.push(...readSchema(checker, inner).map((a) => ({ shared: prop.expression.getText(), ...a })));
      continue;
    }
    if (!ts.isPropertyAssignment(prop)) continue;
    const name = propName(prop.name);
    const spec = unwrap(prop.initializer);
    if (!ts.isObjectLiteralExpression(spec)) continue;
    const fields: Record<string, unknown> = {};
    for (const f of spec.properties)
      if (ts.isPropertyAssignment(f)) fields[propName(f.name)] = literalValue(f.initializer);
    const attr: AttributeApi = {
      name,
      property: camel(name),
      kind: fields.type as AttributeApi['kind'],
      description: jsDocText(prop).text.replace(/\s+/g, ' '),
    };
    if (Array.isArray(fields.values)) attr.values = fields.values as string[];
    if (fields.default !== undefined) attr.default = fields.default as string | number | boolean;
    out.push(attr);
  }
  return out;
}

/** Follows an identifier (possibly imported) to the object literal it was declared with. */
function objectLiteralOf(checker: ts.TypeChecker, expr: ts.Expression): ts.ObjectLiteralExpression | undefined {
  const node = unwrap(expr);
  if (ts.isObjectLiteralExpression(node)) return node;
  if (ts.isSpreadAssignment(node as never)) return undefined;
  if (!ts.isIdentifier(node)) return undefined;
  let symbol = checker.getSymbolAtLocation(node);
  if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
  const decl = symbol?.valueDeclaration;
  if (decl && ts.isVariableDeclaration(decl) && decl.initializer) {
    const init = unwrap(decl.initializer);
    if (ts.isObjectLiteralExpression(init)) return init;
  }
  return undefined;
}

class TypePrinter {
  constructor(private checker: ts.TypeChecker) {}

  print(type: ts.Type, depth = 0, indent = '', dropUndefined = false): string {
    const c = this.checker;
    if (type.isUnion()) {
      let parts = type.types.filter((t) => !(dropUndefined && t.flags & ts.TypeFlags.Undefined));
      const bools = parts.filter((t) => t.flags & ts.TypeFlags.BooleanLiteral);
      const printed: string[] = [];
      if (bools.length === 2) parts = parts.filter((t) => !(t.flags & ts.TypeFlags.BooleanLiteral));
      for (const t of parts) printed.push(this.print(t, depth, indent));
      if (bools.length === 2) printed.push('boolean');
      return printed.join(' | ');
    }
    if (type.flags & (ts.TypeFlags.StringLiteral | ts.TypeFlags.NumberLiteral | ts.TypeFlags.BooleanLiteral)) {
      return c.typeToString(type).replace(/^"(.*)"$/, "'$1'");
    }
    if (
      type.flags &
      (ts.TypeFlags.String |
        ts.TypeFlags.Number |
        ts.TypeFlags.Boolean |
        ts.TypeFlags.Null |
        ts.TypeFlags.Undefined |
        ts.TypeFlags.Unknown |
        ts.TypeFlags.Any)
    ) {
      return c.typeToString(type);
    }
    if (c.isTupleType(type)) {
      return `[${c
        .getTypeArguments(type as ts.TypeReference)
        .map((t) => this.print(t, depth + 1, indent))
        .join(', ')}]`;
    }
    if (c.isArrayType(type)) {
      const [item] = c.getTypeArguments(type as ts.TypeReference);
      const inner = item ? this.print(item, depth + 1, indent) : 'unknown';
      return /[|&]/.test(inner) ? `Array<${inner}>` : `${inner}[]`;
    }
    if (type.flags & ts.TypeFlags.Object) {
      if (depth > 5) return 'Record<string, unknown>';
      const props = c.getPropertiesOfType(type);
      if (!props.length) return 'Record<string, never>';
      const inner = indent + '  ';
      return `{\n${props.map((p) => this.member(p, depth + 1, inner)).join('\n')}\n${indent}}`;
    }
    return c.typeToString(type, undefined, ts.TypeFormatFlags.NoTruncation);
  }

  member(symbol: ts.Symbol, depth: number, indent: string): string {
    const c = this.checker;
    const decl = symbol.valueDeclaration ?? symbol.declarations?.[0];
    const type = decl ? c.getTypeOfSymbolAtLocation(symbol, decl) : c.getTypeOfSymbol(symbol);
    const optional = symbol.flags & ts.SymbolFlags.Optional ? '?' : '';
    const doc = ts.displayPartsToString(symbol.getDocumentationComment(c)).trim();
    const comment = doc ? `${indent}/** ${doc.replace(/\s+/g, ' ')} */\n` : '';
    return `${comment}${indent}${symbol.name}${optional}: ${this.print(type, depth, indent, Boolean(optional))};`;
  }

  /** A full `interface Name { ... }` with one member per line and their doc comments. */
  interfaceDeclaration(name: string, type: ts.Type): string {
    const props = this.checker.getPropertiesOfType(type);
    return `export interface ${name} {\n${props.map((p) => this.member(p, 1, '  ')).join('\n')}\n}`;
  }
}

/** Each root's element APIs, read once per process (the build's types and WordPress plugin both ask). */
const read = new Map<string, ElementApi[]>();

/** The attributes, events, parts and typings of every element, read with TypeScript's checker (seconds). */
export function readElementApis(root = ROOT): ElementApi[] {
  const apis = read.get(root) ?? readApis(root);
  read.set(root, apis);
  return apis;
}

function readApis(root: string): ElementApi[] {
  const files = elementFiles(root);
  const program = ts.createProgram(files, {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    jsx: ts.JsxEmit.ReactJSX,
    strict: true,
    allowImportingTsExtensions: true,
    resolveJsonModule: true,
    noEmit: true,
    skipLibCheck: true,
    types: [],
  });
  const checker = program.getTypeChecker();
  const printer = new TypePrinter(checker);

  let common: AttributeApi[] = [];
  const elementLib = program.getSourceFile(join(root, 'widgets/lib/element.tsx'));
  elementLib?.forEachChild((node) => {
    if (ts.isVariableStatement(node)) {
      for (const d of node.declarationList.declarations) {
        if (ts.isIdentifier(d.name) && d.name.text === 'commonAttributes' && d.initializer) {
          const obj = objectLiteralOf(checker, d.initializer);
          if (obj) common = readSchema(checker, obj);
        }
      }
    }
  });

  // ExpEventMap as merged from every augmentation in the program (elements and widgets/lib)
  const eventTypes = new Map<string, { text: string; declaration?: string; name?: string }>();
  const eventsFile = program.getSourceFile(join(root, 'widgets/lib/events.ts'));
  eventsFile?.forEachChild((node) => {
    if (!ts.isInterfaceDeclaration(node) || node.name.text !== 'ExpEventMap') return;
    const symbol = checker.getSymbolAtLocation(node.name);
    if (!symbol) return;
    for (const prop of checker.getPropertiesOfType(checker.getDeclaredTypeOfSymbol(symbol))) {
      const decl = prop.declarations?.[0];
      if (!decl || !ts.isPropertySignature(decl) || !decl.type) continue;
      const type = checker.getTypeFromTypeNode(decl.type);
      const refName =
        ts.isTypeReferenceNode(decl.type) && ts.isIdentifier(decl.type.typeName) ? decl.type.typeName.text : undefined;
      eventTypes.set(
        prop.name,
        refName
          ? { text: refName, declaration: printer.interfaceDeclaration(refName, type), name: refName }
          : { text: printer.print(type) },
      );
    }
  });

  const apis: ElementApi[] = [];
  for (const file of files) {
    const source = program.getSourceFile(file);
    if (!source) continue;
    // events this element types itself (a typed event must also be documented with @event)
    const ownEvents = new Set<string>();
    let api: ElementApi | undefined;

    source.forEachChild((node) => {
      if (ts.isModuleDeclaration(node) && node.body && ts.isModuleBlock(node.body)) {
        for (const st of node.body.statements) {
          if (!ts.isInterfaceDeclaration(st) || st.name.text !== 'ExpEventMap') continue;
          for (const m of st.members) if (ts.isPropertySignature(m)) ownEvents.add(propName(m.name));
        }
      }
      if (
        ts.isExpressionStatement(node) &&
        ts.isCallExpression(node.expression) &&
        ts.isIdentifier(node.expression.expression) &&
        node.expression.expression.text === 'defineElement'
      ) {
        const arg = node.expression.arguments[0];
        if (!arg || !ts.isObjectLiteralExpression(arg)) return;
        let tag = '';
        let attributes: AttributeApi[] = [];
        for (const p of arg.properties) {
          if (!ts.isPropertyAssignment(p)) continue;
          const key = propName(p.name);
          if (key === 'tag') tag = String(literalValue(p.initializer));
          if (key === 'attributes') {
            const obj = objectLiteralOf(checker, p.initializer);
            if (obj) attributes = readSchema(checker, obj);
          }
        }
        const doc = jsDocText(node);
        const events: EventApi[] = [];
        const cssParts: NamedDoc[] = [];
        const cssProperties: NamedDoc[] = [];
        for (const t of doc.tags) {
          const name = t.tagName.text;
          if (name === 'event' || name === 'fires') {
            const named = splitNamed(tagText(t));
            events.push({ name: named.name, description: named.description, detailType: 'unknown' });
          }
          if (name === 'csspart') cssParts.push(splitNamed(tagText(t)));
          if (name === 'cssprop' || name === 'cssproperty') cssProperties.push(splitNamed(tagText(t)));
        }
        api = {
          tag,
          className: `${pascal(tag)}Element`,
          module: relative(root, file).split('\\').join('/'),
          summary: doc.text.replace(/\s*\n\s*/g, ' '),
          attributes: [...attributes, ...common],
          events,
          cssParts,
          cssProperties: withTheme(cssProperties),
        };
      }
    });
    if (!api) throw new Error(`${relative(root, file)}: no documented defineElement({...}) call found`);
    const found = api as ElementApi;
    for (const e of found.events) {
      const detail = eventTypes.get(e.name);
      if (!detail) throw new Error(`${found.module}: @event ${e.name} has no ExpEventMap entry`);
      e.detailType = detail.text;
      if (detail.declaration) e.detailDeclaration = detail.declaration;
      if (detail.name) e.detailName = detail.name;
    }
    for (const name of ownEvents) {
      if (!found.events.some((e) => e.name === name))
        throw new Error(`${found.module}: event ${name} is typed but not documented with @event`);
    }
    apis.push(found);
  }
  return apis;
}

/**
 * Walking the project's schemas alongside an instance: the schema nodes that describe a location
 * (following $ref, allOf, anyOf, oneOf, if/then/else), the requirement annotated nearest to it, and the
 * properties a value has that no schema describes (reported as warnings, never as failures).
 */
import { SCHEMAS } from '../spec/schemas/index.js';
import type { JsonSchema, SchemaName } from '../spec/schemas/index.js';
import { memoisedWeak } from '../support/memo.js';
import { REQUIREMENT_KEYWORD } from './ajv.js';

type Node = JsonSchema | boolean;

const byId: ReadonlyMap<string, JsonSchema> = new Map(Object.values(SCHEMAS).map((schema) => [String(schema.$id), schema]));

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function asNode(value: unknown): JsonSchema | undefined {
  return isObject(value) ? value : undefined;
}

/** The schema a `$ref` of the registry points to. */
export function resolveRef(refValue: string): JsonSchema | undefined {
  return byId.get(refValue);
}

/**
 * What `expand` found for a node: the schemas never change, and every value of every exchange is walked
 * (propertyNotices), so each node is expanded once per process, not once per value.
 */
const expanded = new WeakMap<JsonSchema, readonly JsonSchema[]>();

/**
 * The node and every node it brings in at the same instance location, in order: the node itself,
 * then its $ref target, allOf/anyOf/oneOf members, then and else branches (recursively).
 */
export function expand(node: Node | undefined): readonly JsonSchema[] {
  const schema = asNode(node);
  if (!schema) return [];
  return memoisedWeak(expanded, schema, () => expandFrom(schema, new Set()));
}

function expandFrom(node: Node | undefined, seen: Set<JsonSchema>): JsonSchema[] {
  const schema = asNode(node);
  if (!schema || seen.has(schema)) return [];
  seen.add(schema);
  const out: JsonSchema[] = [schema];
  if (typeof schema.$ref === 'string') out.push(...expandFrom(resolveRef(schema.$ref), seen));
  for (const key of ['allOf', 'anyOf', 'oneOf'] as const) {
    const members = schema[key];
    if (Array.isArray(members)) for (const m of members) out.push(...expandFrom(m as Node, seen));
  }
  for (const key of ['then', 'else'] as const) out.push(...expandFrom(schema[key] as Node | undefined, seen));
  return out;
}

/** patternProperties' patterns, compiled once. */
const patternsCompiled = new Map<string, RegExp>();
function compiledPattern(pattern: string): RegExp {
  let compiled = patternsCompiled.get(pattern);
  if (compiled === undefined) patternsCompiled.set(pattern, (compiled = new RegExp(pattern, 'u')));
  return compiled;
}

/** The schema nodes that describe the child `key` of a location described by `nodes`. */
export function childNodes(nodes: readonly JsonSchema[], key: string, inArray: boolean): JsonSchema[] {
  const out: JsonSchema[] = [];
  for (const node of nodes) {
    if (inArray) {
      const prefix = node.prefixItems;
      const index = Number(key);
      if (Array.isArray(prefix) && index < prefix.length) out.push(...expand(prefix[index] as Node));
      else out.push(...expand(node.items as Node | undefined));
      continue;
    }
    const props = asNode(node.properties);
    let matched = false;
    if (props && Object.hasOwn(props, key)) {
      out.push(...expand(props[key] as Node));
      matched = true;
    }
    const patterns = asNode(node.patternProperties);
    if (patterns) {
      for (const [pattern, sub] of Object.entries(patterns)) {
        if (compiledPattern(pattern).test(key)) {
          out.push(...expand(sub as Node));
          matched = true;
        }
      }
    }
    if (!matched) out.push(...expand(node.additionalProperties as Node | undefined));
  }
  return out;
}

/** Splits a JSON pointer into unescaped segments. */
export function pointerSegments(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

export function escapePointerSegment(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Normalises an `x-requirement` value to a list of ids. */
export function requirementIds(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string');
  return [];
}

/** The `x-requirement` ids written on a node itself (not on what it references). */
export function ownRequirement(node: unknown): string[] {
  return isObject(node) ? requirementIds(node[REQUIREMENT_KEYWORD]) : [];
}

/** What a node says about its requirement: the ids it carries, if any. */
export interface RequirementAnnotation {
  ids: string[];
}

export function annotationOf(node: unknown): RequirementAnnotation | undefined {
  const ids = ownRequirement(node);
  return ids.length > 0 ? { ids } : undefined;
}

/**
 * The requirement annotated nearest to an instance location: walking from the root schema along the
 * pointer, the deepest location whose nodes carry `x-requirement` (the first such node at that depth,
 * so an annotation at the point of use wins over the referenced schema's own).
 */
export function nearestRequirement(root: JsonSchema, pointer: string, data?: unknown): RequirementAnnotation {
  let nodes = expand(root);
  let found: RequirementAnnotation = { ids: [] };
  const pick = (list: readonly JsonSchema[]): void => {
    for (const n of list) {
      const annotation = annotationOf(n);
      if (annotation) {
        found = annotation;
        return;
      }
    }
  };
  pick(nodes);
  let value: unknown = data;
  for (const segment of pointerSegments(pointer)) {
    const inArray = Array.isArray(value) || (value === undefined && /^[0-9]+$/.test(segment) && nodes.some((n) => 'items' in n));
    nodes = childNodes(nodes, segment, inArray);
    value = isObject(value) || Array.isArray(value) ? (value as Record<string, unknown>)[segment] : undefined;
    if (nodes.length === 0) break;
    pick(nodes);
  }
  return found;
}

export interface PropertyNotice {
  pointer: string;
  value: unknown;
  /** `unknown`: no schema describes the property; `deprecated`: the schema marks it deprecated. */
  kind: 'unknown' | 'deprecated';
  /** For a deprecated property, the requirement annotated on it. */
  requirement: string[];
}

/** Whether the nodes say which properties an object has (otherwise it is free-form). */
function describesProperties(nodes: readonly JsonSchema[]): boolean {
  return nodes.some((n) => 'properties' in n || 'patternProperties' in n || 'additionalProperties' in n);
}

function allowsAnyProperty(nodes: readonly JsonSchema[]): boolean {
  return nodes.some((n) => n.additionalProperties !== undefined && n.additionalProperties !== false);
}

function knownProperty(nodes: readonly JsonSchema[], key: string): boolean {
  return nodes.some((n) => {
    const props = asNode(n.properties);
    if (props && Object.hasOwn(props, key)) return true;
    const patterns = asNode(n.patternProperties);
    return patterns !== undefined && Object.keys(patterns).some((p) => new RegExp(p, 'u').test(key));
  });
}

/**
 * Properties of `value`, anywhere in it, that the schema does not describe, and properties it marks
 * `deprecated` (e.g. Address.city).
 */
export function propertyNotices(name: SchemaName, value: unknown): PropertyNotice[] {
  const out: PropertyNotice[] = [];
  const walk = (data: unknown, nodes: readonly JsonSchema[], pointer: string): void => {
    if (nodes.length === 0) return;
    if (Array.isArray(data)) {
      data.forEach((item, i) => walk(item, childNodes(nodes, String(i), true), `${pointer}/${i}`));
      return;
    }
    if (!isObject(data)) return;
    const described = describesProperties(nodes);
    const open = allowsAnyProperty(nodes);
    for (const [key, child] of Object.entries(data)) {
      const childPointer = `${pointer}/${escapePointerSegment(key)}`;
      if (described && !open && !knownProperty(nodes, key)) {
        out.push({ pointer: childPointer, value: child, kind: 'unknown', requirement: [] });
        continue;
      }
      const children = childNodes(nodes, key, false);
      const deprecated = children.find((n) => n.deprecated === true);
      if (deprecated) out.push({ pointer: childPointer, value: child, kind: 'deprecated', requirement: ownRequirement(deprecated) });
      walk(child, children, childPointer);
    }
  };
  walk(value, expand(SCHEMAS[name]), '');
  return out;
}

/**
 * The requirements a value actually exercised: the ids annotated on every schema node that described a
 * present value, and on properties the schema declares but the value leaves out (a rule about an optional
 * field holds when the field is absent). A constraint on a value that is not there (an item of an empty
 * array) exercised nothing. Used to record which rules a body was checked against, not only which it broke.
 */
export function exercisedRequirements(name: SchemaName, value: unknown): Set<string> {
  const out = new Set<string>();
  const collect = (nodes: readonly JsonSchema[]): void => {
    for (const node of nodes) for (const id of ownRequirement(node)) out.add(id);
  };
  const walk = (data: unknown, nodes: readonly JsonSchema[]): void => {
    if (nodes.length === 0) return;
    collect(nodes);
    if (Array.isArray(data)) {
      data.forEach((item, i) => walk(item, childNodes(nodes, String(i), true)));
      return;
    }
    if (!isObject(data)) return;
    for (const [key, child] of Object.entries(data)) walk(child, childNodes(nodes, key, false));
    // An optional property left out satisfies its rules; a required one left out is an error, judged elsewhere.
    const required = new Set(nodes.flatMap((node) => (Array.isArray(node.required) ? (node.required as unknown[]) : [])));
    for (const node of nodes) {
      const props = asNode(node.properties);
      if (!props) continue;
      for (const [key, sub] of Object.entries(props)) {
        if (!Object.hasOwn(data, key) && !required.has(key)) for (const id of ownRequirement(sub)) out.add(id);
      }
    }
  };
  walk(value, expand(SCHEMAS[name]));
  return out;
}

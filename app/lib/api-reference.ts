/**
 * The reference page /api/docs (issue 33) as a compact view model of the OpenAPI document: tags → operations, each
 * with its parameters, body and answer as field lists, its error codes by status and an example request. Pure: it
 * reads the document /api/v1/openapi.json serves, nothing else, so the page cannot say what the JSON does not.
 */
type Schema = Record<string, any>;
type OpenApiDocument = { paths: Record<string, Record<string, any>>; servers?: Array<{ url: string }> };

/** A field of a body or an answer; `fields` one level down for an object (or a list of objects). */
export interface RefField {
  name: string;
  type: string;
  required?: true;
  description?: string;
  fields?: RefField[];
}
export interface RefParameter {
  name: string;
  in: string;
  type: string;
  required?: true;
  description?: string;
}
export interface RefOperation {
  id: string;
  method: string;
  path: string;
  summary: string;
  description?: string;
  /** `public`, `user` (any session), or the roles that may call it. */
  auth: 'public' | 'user' | string[];
  deprecated?: true;
  developmentOnly?: true;
  parameters: RefParameter[];
  /** The body's media types and fields. */
  body?: { types: string[]; fields: RefField[] };
  success: { status: string; type?: string; fields: RefField[]; headers: string[] };
  errors: Array<{ status: string; codes: string[] }>;
  example: string;
}
export interface RefTag {
  name: string;
  operations: RefOperation[];
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** The schema without `null` in a union: what a client sends or reads when there is a value. */
function nonNull(schema: Schema): Schema {
  const union = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(union)) {
    const rest = union.filter((s: Schema) => s.type !== 'null');
    if (rest.length === 1) return { ...rest[0], description: schema.description ?? rest[0].description };
  }
  if (schema.allOf?.length === 1) return { ...schema.allOf[0], description: schema.description ?? schema.allOf[0].description };
  return schema;
}

/** A short readable type: `string (date)`, `integer`, `"a" | "b"`, `object[]`, `string | null`. */
export function typeOf(schema: Schema | undefined): string {
  if (!schema) return 'any';
  if ('const' in schema) return JSON.stringify(schema.const);
  if (Array.isArray(schema.enum)) return schema.enum.map((v: unknown) => JSON.stringify(v)).join(' | ');
  const union = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(union)) return [...new Set(union.map((s: Schema) => typeOf(s)))].join(' | ');
  if (schema.allOf) return typeOf(schema.allOf[0]);
  const types: string[] = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if (!types.length) return schema.properties ? 'object' : 'any';
  return types
    .map((type) => {
      if (type === 'array') return `${typeOf(schema.items)}[]`;
      if (type === 'string' && schema.contentMediaType) return 'file';
      if (type === 'string' && schema.format) return `string (${schema.format})`;
      return type;
    })
    .join(' | ');
}

/** An object schema's fields; objects (and lists of objects) within get their own fields while `depth` allows. */
export function fieldsOf(schema: Schema | undefined, depth = 1): RefField[] {
  if (!schema) return [];
  const plain = nonNull(schema);
  if (plain.allOf) return plain.allOf.flatMap((part: Schema) => fieldsOf(part, depth));
  const required = new Set<string>(plain.required ?? []);
  return Object.entries((plain.properties ?? {}) as Record<string, Schema>).map(([name, property]) => {
    const inner = nonNull(property);
    const object = inner.properties ? inner : inner.type === 'array' && inner.items?.properties ? inner.items : undefined;
    return {
      name,
      type: typeOf(property),
      ...(required.has(name) ? { required: true as const } : {}),
      ...(property.description ? { description: String(property.description) } : {}),
      ...(object && depth > 0 ? { fields: fieldsOf(object, depth - 1) } : {}),
    };
  });
}

/** A plausible value for a field: an enum's first value, numbers 1 (or the minimum), strings after the name or format. */
export function exampleOf(schema: Schema | undefined, name = ''): unknown {
  if (!schema) return name || 'value';
  const plain = nonNull(schema);
  if ('const' in plain) return plain.const;
  if (Array.isArray(plain.enum)) return plain.enum[0];
  const union = plain.anyOf ?? plain.oneOf;
  if (Array.isArray(union)) return exampleOf(union[0], name);
  if (plain.allOf) return Object.assign({}, ...plain.allOf.map((part: Schema) => exampleOf(part, name)));
  const type = Array.isArray(plain.type) ? plain.type.find((t: string) => t !== 'null') : plain.type;
  if (type === 'object' || (!type && plain.properties)) {
    const properties = (plain.properties ?? {}) as Record<string, Schema>;
    const required: string[] = plain.required ?? [];
    const names = required.length ? required : Object.keys(properties);
    return Object.fromEntries(names.filter((n) => properties[n]).map((n) => [n, exampleOf(properties[n], n)]));
  }
  if (type === 'array') return [exampleOf(plain.items, name.replace(/s$/, ''))];
  if (type === 'integer' || type === 'number') return typeof plain.minimum === 'number' && plain.minimum > 1 ? plain.minimum : 1;
  if (type === 'boolean') return true;
  return exampleString(plain, name);
}

function exampleString(schema: Schema, name: string): string {
  const lower = name.toLowerCase();
  const format = schema.format as string | undefined;
  if (format === 'email' || lower.includes('email')) return 'traveler@example.com';
  if (format === 'date-time') return '2026-12-24T09:00:00.000Z';
  if (format === 'date' || lower === 'date' || lower.endsWith('date')) return '2026-12-24';
  if (format === 'uri' || format === 'url' || lower.endsWith('url')) return 'https://example.com/';
  if (lower.includes('password')) return 'correct-horse-battery';
  if (lower === 'code') return '123456';
  const text = name || 'text';
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
  return text.length >= min ? text : text.padEnd(min, '.');
}

/** A shell-quoted argument (single quotes; a quote inside closes, escapes and reopens). */
const quote = (value: string) => `'${value.replaceAll("'", `'\\''`)}'`;

function exampleRequest(base: string, method: string, path: string, operation: Schema, auth: RefOperation['auth']): string {
  const parameters: Schema[] = operation.parameters ?? [];
  const url = new URL(base.replace(/\/$/, '') + path.replace(/\{(\w+)\}/g, '1'));
  for (const parameter of parameters) if (parameter.in === 'query' && parameter.required) url.searchParams.set(parameter.name, String(exampleOf(parameter.schema, parameter.name)));
  const lines = [`curl${method === 'get' ? '' : ` -X ${method.toUpperCase()}`} ${quote(url.toString())}`];
  if (auth !== 'public') lines.push(`-H ${quote('Authorization: Bearer <token>')}`);
  if (parameters.some((p) => p.in === 'header' && p.name === 'Idempotency-Key')) lines.push(`-H ${quote('Idempotency-Key: <a new UUID per write>')}`);
  const content = operation.requestBody?.content as Record<string, { schema: Schema }> | undefined;
  if (content?.['application/json']) {
    lines.push(`-H ${quote('Content-Type: application/json')}`, `-d ${quote(JSON.stringify(exampleOf(content['application/json'].schema)))}`);
  } else if (content?.['multipart/form-data']) {
    for (const field of fieldsOf(content['multipart/form-data'].schema, 0)) if (field.type === 'file') lines.push(`-F ${quote(`${field.name}=@picture.jpg`)}`);
  }
  return lines.join(' \\\n  ');
}

function operationOf(base: string, path: string, method: string, operation: Schema): RefOperation {
  const auth: RefOperation['auth'] = !operation.security?.length ? 'public' : operation['x-roles'] ? [...operation['x-roles']] : 'user';
  const responses = Object.entries((operation.responses ?? {}) as Record<string, Schema>);
  const [status, success] = responses.find(([code]) => /^2/.test(code)) ?? ['200', {}];
  const [successType, successContent] = Object.entries((success.content ?? {}) as Record<string, { schema: Schema }>)[0] ?? [];
  const data = successType === 'application/json' ? successContent?.schema.properties?.data : undefined;
  const content = operation.requestBody?.content as Record<string, { schema: Schema }> | undefined;
  const bodySchema = content?.['application/json']?.schema ?? content?.['multipart/form-data']?.schema;
  return {
    id: operation.operationId,
    method: method.toUpperCase(),
    path,
    summary: operation.summary ?? '',
    ...(operation.description ? { description: operation.description } : {}),
    auth,
    ...(operation.deprecated ? { deprecated: true as const } : {}),
    ...(operation['x-development-only'] ? { developmentOnly: true as const } : {}),
    parameters: ((operation.parameters ?? []) as Schema[]).map((p) => ({
      name: p.name,
      in: p.in,
      type: typeOf(p.schema),
      ...(p.required ? { required: true as const } : {}),
      ...(p.description ?? p.schema?.description ? { description: String(p.description ?? p.schema.description) } : {}),
    })),
    ...(content && bodySchema ? { body: { types: Object.keys(content), fields: fieldsOf(bodySchema) } } : {}),
    success: {
      status,
      ...(successType && successType !== 'application/json' ? { type: successType } : {}),
      fields: data ? (data.properties || data.allOf || data.anyOf ? fieldsOf(data) : [{ name: 'data', type: typeOf(data) }]) : [],
      headers: Object.keys(success.headers ?? {}),
    },
    errors: responses
      .filter(([code]) => Number(code) >= 400)
      .map(([code, answer]) => ({ status: code, codes: answer.content?.['application/json']?.schema?.allOf?.[1]?.properties?.code?.enum ?? [] })),
    example: exampleRequest(base, method, path, operation, auth),
  };
}

/** The document's operations by tag (in the order tags first appear, operations by path), for the page. */
export function apiReference(document: OpenApiDocument, fallbackBase: string): RefTag[] {
  const base = document.servers?.[0]?.url ?? fallbackBase;
  const tags = new Map<string, RefOperation[]>();
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const tag = operation.tags?.[0] ?? 'other';
      tags.set(tag, [...(tags.get(tag) ?? []), operationOf(base, path, method, operation)]);
    }
  }
  return [...tags].map(([name, operations]) => ({ name, operations }));
}

import { data } from '@remix-run/node';
import type { z } from 'zod';
import { getFixedT } from '~/i18n/i18n.server';
import { FALLBACK_LOCALE, matchLocale, type Locale } from '~/i18n/config';
import { AppError, type FieldErrorKeys } from '~/services/errors.server';

/**
 * The JSON envelope of ARCHITECTURE §5 for /api/v1 resource routes:
 * success `{ success: true, data }`, failure `{ success: false, code, message, errors? }`, with the message
 * in the language of Accept-Language (zh-TW fallback). A route is `apiRoute(async ({ request }) => ...)`.
 */

export function apiLocale(request: Request): Locale {
  for (const part of (request.headers.get('accept-language') ?? '').split(',')) {
    const match = matchLocale(part.split(';')[0]);
    if (match) return match;
  }
  return FALLBACK_LOCALE;
}

export function ok<T>(payload: T, init?: { status?: number; headers?: HeadersInit }) {
  return data({ success: true as const, data: payload }, { status: init?.status ?? 200, headers: noStore(init?.headers) });
}

function noStore(headers?: HeadersInit): Headers {
  const h = new Headers(headers);
  if (!h.has('Cache-Control')) h.set('Cache-Control', 'no-store');
  return h;
}

/** Translates field error keys (validation.*) into messages. */
export async function translateFieldErrors(fieldErrors: FieldErrorKeys, locale: Locale) {
  const t = await getFixedT(locale);
  return Object.fromEntries(Object.entries(fieldErrors).map(([field, keys]) => [field, keys.map((k) => t(k))]));
}

/** The failure answer for any error: AppError keeps its code; anything else is logged and becomes 500. */
export async function errorResponse(error: unknown, request: Request) {
  const locale = apiLocale(request);
  const t = await getFixedT(locale);
  if (error instanceof AppError) {
    const headers = noStore();
    if (error.retryAfter) headers.set('Retry-After', String(error.retryAfter));
    return data(
      {
        success: false as const,
        code: error.code,
        message: t(error.messageKey, error.params),
        ...(error.fieldErrors ? { errors: await translateFieldErrors(error.fieldErrors, locale) } : {}),
      },
      { status: error.status, headers },
    );
  }
  console.error(error);
  return data(
    { success: false as const, code: 'SERVER_ERROR', message: t('errors.codes.SERVER_ERROR') },
    { status: 500, headers: noStore() },
  );
}

type Handler<A> = (args: A) => Promise<Response | ReturnType<typeof ok>>;

/** Wraps a loader or action so every thrown error becomes the envelope (a thrown Response passes through). */
export function apiRoute<A extends { request: Request }>(handler: Handler<A>) {
  return async (args: A) => {
    try {
      return await handler(args);
    } catch (error) {
      if (error instanceof Response) throw error;
      return errorResponse(error, args.request);
    }
  };
}

/**
 * Reads a JSON (or form-encoded) body and checks it with a shared schema; a bad body is a
 * 400 VALIDATION_ERROR whose `errors` name the fields.
 */
export async function parseBody<S extends z.ZodType>(request: Request, schema: S): Promise<z.infer<S>> {
  let body: unknown;
  const type = request.headers.get('content-type') ?? '';
  try {
    if (type.includes('application/json')) body = await request.json();
    else if (type.includes('form')) body = formValues(await request.formData());
    else body = JSON.parse((await request.text()) || '{}');
  } catch {
    throw new AppError('VALIDATION_ERROR');
  }
  return parseValue(schema, body);
}

/** A form body as an object; a repeated name (ticked checkboxes) becomes an array of its values. */
function formValues(form: FormData): Record<string, FormDataEntryValue | FormDataEntryValue[]> {
  const values: Record<string, FormDataEntryValue | FormDataEntryValue[]> = {};
  for (const [key, value] of form) {
    const previous = values[key];
    values[key] = previous === undefined ? value : Array.isArray(previous) ? [...previous, value] : [previous, value];
  }
  return values;
}

export function parseValue<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const fieldErrors: FieldErrorKeys = {};
  for (const issue of result.error.issues) {
    const field = issue.path.length ? issue.path.join('.') : '_form';
    // Our schemas give i18n keys; anything else (a wrong type from an API client) reads as "invalid".
    const key = /^(validation|errors)\./.test(issue.message) ? issue.message : 'validation.invalid';
    (fieldErrors[field] ??= []).push(key);
  }
  throw new AppError('VALIDATION_ERROR', { fieldErrors });
}

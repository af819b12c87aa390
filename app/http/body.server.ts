import { AppError } from '~/services/platform/errors.server';

/**
 * Reading a request body is the one place where a client's mistake (a body that does not match its
 * Content-Type, a multipart body with a broken boundary, a form without a type) would surface as a TypeError
 * from the fetch API, i.e. a 500 with a stack trace in the log. Both sides read bodies through here: the API
 * (`parseBody` in api.server.ts) and page actions (`readForm` in page.server.ts), so such a body is 400
 * VALIDATION_ERROR, another media type 415 UNSUPPORTED_MEDIA_TYPE (README status table).
 */

const FORM_TYPES = ['application/x-www-form-urlencoded', 'multipart/form-data'];

/** The media type of the body, lower case, without parameters ('' when there is no Content-Type). */
export function mediaType(request: Request): string {
  return (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
}

export const isFormType = (type: string) => FORM_TYPES.includes(type);

/**
 * A form body (urlencoded or multipart). No body at all reads as an empty form, so the form's schema answers
 * what is missing; a body of another type is 415; a form that cannot be read is 400.
 */
export async function readFormBody(request: Request): Promise<FormData> {
  const type = mediaType(request);
  if (!isFormType(type)) {
    if (type === '' && (await request.text()) === '') return new FormData();
    throw new AppError('UNSUPPORTED_MEDIA_TYPE');
  }
  try {
    return await request.formData();
  } catch {
    throw new AppError('VALIDATION_ERROR', { fieldErrors: { _body: ['validation.malformedForm'] } });
  }
}

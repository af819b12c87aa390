import { apiHandlers } from '~/http/api.server';
import { defineApi } from '~/http/contract';
import { idApplicationSchema, idApplicationSchemaOut, idVerificationStatusSchema } from '~/schemas/trust';
import { parseValue } from '~/services/platform/errors.server';
import { applyForIdVerification, assertMayApply, getMyIdVerification } from '~/services/trust/id-verification.server';
import { readUploadForm, uploadedBytes } from '~/services/platform/image-pipeline.server';

export const contract = defineApi({
  path: '/api/v1/id-verification',
  tags: ['id-verification'],
  operations: {
    GET: {
      summary: 'The caller’s identity-verification state and latest application',
      description: 'state: not_verified → pending → verified, or rejected with the reviewer’s notes. Document URLs are private (applicant and admins, `Cache-Control: private, no-store`).',
      auth: 'user',
      cache: 'no-store',
      data: idVerificationStatusSchema,
      errors: ['UNAUTHORIZED'],
    },
    POST: {
      summary: 'Apply for identity verification: a document type and the front and back images (multipart)',
      description:
        'Multipart fields `type` (national_id, passport, resident_certificate, tour_guide_license), `front` and `back` (JPEG, PNG or WebP by their bytes, each at most 10 MiB). The images are re-encoded and stored privately. 409 ALREADY_VERIFIED when the account is verified or an application is pending; admins do not apply (403).',
      auth: 'user',
      upload: { field: 'front', description: 'Front of the document; `back` likewise, and the text field `type`' },
      status: 201,
      data: idApplicationSchemaOut,
      errors: ['UNAUTHORIZED', 'FORBIDDEN', 'ALREADY_VERIFIED', 'FILE_TOO_LARGE', 'INVALID_FILE_TYPE'],
    },
  },
});

const handlers = apiHandlers(contract, {
  GET: async ({ session }) => getMyIdVerification(session.user),
  POST: async ({ request, session }) => {
    // Refuse before reading a possibly large body.
    await assertMayApply(session.user);
    const form = await readUploadForm(request);
    const { type } = parseValue(idApplicationSchema, { type: form.get('type') ?? undefined });
    const front = await uploadedBytes(form, 'front', 'trust.idv.errors.noFront');
    const back = await uploadedBytes(form, 'back', 'trust.idv.errors.noBack');
    return applyForIdVerification(session.user, { type, front, back });
  },
});
export const loader = handlers.loader;
export const action = handlers.action;

import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { errorResponse } from '~/http/api.server';
import { AppError } from '~/services/platform/errors.server';

/** Any /api path no route claims: the JSON envelope's 404, whatever the method (not the HTML 404 page). */
const notFound = ({ request }: LoaderFunctionArgs | ActionFunctionArgs) => errorResponse(new AppError('NOT_FOUND'), request);
export const loader = notFound;
export const action = notFound;

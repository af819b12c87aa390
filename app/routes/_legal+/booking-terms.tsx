import type { MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { LegalPage } from '~/components/legal-page';
import { legalLoader } from '~/http/legal.server';
import { pageMeta } from '~/lib/meta';

export const loader = legalLoader('booking');
export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(matches, data?.document?.title);

export default function LegalRoute() {
  return <LegalPage document={useLoaderData<typeof loader>().document} />;
}

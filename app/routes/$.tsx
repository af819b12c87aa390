import { data, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { ErrorPage } from '~/components/error-page';
import { useFromDocument } from '~/components/hydrated';
import { getFixedT } from '~/i18n/i18n.server';
import { pageMeta } from '~/lib/meta';
import { useRootData } from '~/lib/root-data';

// Any path no other route matches: the translated 404 page, answered with status 404 and a title of its own
// ("找不到頁面 | 旅遊助手"), so a tab or a bookmark says what happened.
export async function loader({ request }: LoaderFunctionArgs) {
  const t = await getFixedT(request);
  return data({ title: t('errors.notFoundTitle') }, { status: 404 });
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(matches, data?.title);

export default function NotFound() {
  return <ErrorPage status={404} reference={useFromDocument(useRootData()?.requestId)} />;
}

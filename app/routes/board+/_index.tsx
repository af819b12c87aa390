import { getFormProps } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useLocation, useNavigation } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { BoardModeration } from '~/components/board-moderation';
import { ChoiceGroup, Field, SelectField, SubmitButton, TextareaField } from '~/components/forms/form-fields';
import { FormErrors } from '~/components/forms/messages';
import { useResetAfterSuccess } from '~/components/forms/use-reset-after-success';
import { useSchemaForm } from '~/components/forms/use-schema-form';
import { PagedList } from '~/components/paged-list';
import { getUser, requireUser } from '~/http/session.server';
import { forwardRetryAfter, replyWithError } from '~/http/forms.server';
import { formKeyFor, keyedFormSubmit } from '~/http/form-keys.server';
import { readForm } from '~/http/page.server';
import { redirectWithToast } from '~/http/toast.server';
import type { I18nHandle } from '~/i18n/bundles';
import { getFixedT } from '~/i18n/i18n.server';
import { CITY_CODES } from '~/lib/cities';
import { formatTaipeiDateTime } from '~/lib/dates';
import { FORM_KEY_FIELD } from '~/lib/form-key';
import { LANGUAGE_CODES } from '~/lib/languages';
import { pageMeta } from '~/lib/meta';
import { BOARD_POST_MAX, boardHideFormSchema, boardIntentSchema, boardListQuerySchema, boardPostIdFormSchema, boardPostSchema } from '~/schemas/board';
import { createBoardPost, deleteBoardPost, hideBoardPost, listBoardPosts } from '~/services/messaging/board.server';

/** /board (issue 23, SPEC §2 "a message board page also exists"): trip requests and questions; every form works without JS. */
export const handle: I18nHandle = { i18n: ['board'] };
/** The scope of the post form's one-time keys. */
const BOARD_POST_PATH = '/board';
export const headers = forwardRetryAfter;

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await getUser(request);
  const query = boardListQuerySchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  const [list, t] = await Promise.all([listBoardPosts(user, query), getFixedT(request)]);
  // The post form's one-time key (docs/decisions/042): a double tap or a resubmit lands on the same post.
  const formKey = user?.type === 'traveler' ? await formKeyFor(user.id, BOARD_POST_PATH) : null;
  return { ...list, query, formKey, viewer: user ? { type: user.type, emailVerified: user.isEmailVerified } : null, title: t('board.title') };
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(matches, data?.title);

export async function action({ request }: ActionFunctionArgs) {
  const { user } = await requireUser(request);
  const formData = await readForm(request);
  const which = parseWithZod(formData, { schema: boardIntentSchema });
  if (which.status !== 'success') return data({ form: 'post' as const, result: which.reply() }, { status: 400 });
  const intent = which.value.intent;
  const schema = intent === 'post' ? boardPostSchema : intent === 'hide' ? boardHideFormSchema : boardPostIdFormSchema;
  const submission = parseWithZod(formData, { schema });
  if (submission.status !== 'success') return data({ form: intent, result: submission.reply() }, { status: 400 });
  try {
    if (intent === 'post') {
      const value = boardPostSchema.parse(submission.value);
      // A repeated submit of this form (its hidden key, same words) lands on the first post; other words are a new post.
      return await keyedFormSubmit(
        formData,
        { userId: user.id, path: BOARD_POST_PATH },
        value,
        async () => {
          const post = await createBoardPost(user, value);
          return redirectWithToast(`/board#post-${post.id}`, { key: 'board.posted', type: 'success' });
        },
        { otherValues: 'run' },
      );
    }
    if (intent === 'hide') {
      const value = boardHideFormSchema.parse(submission.value);
      await hideBoardPost(user, value.postId, value.reason);
    } else await deleteBoardPost(user, boardPostIdFormSchema.parse(submission.value).postId);
    return redirectWithToast('/board', { key: intent === 'hide' ? 'board.hiddenDone' : 'board.deleted', type: 'success' });
  } catch (error) {
    return replyWithError(request, submission, error, { extra: { form: intent } });
  }
}

export default function Board() {
  const { posts, pagination, query, viewer, formKey } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const location = useLocation();
  const { t, i18n } = useTranslation();
  const [form, fields] = useSchemaForm<{ city: string; languages: string[]; startDate: string; endDate: string; body: string }>({
    id: 'board-post',
    schema: boardPostSchema,
    lastResult: actionData?.result,
  });
  useResetAfterSuccess(form, 'post', actionData?.form === 'post');
  const cities = CITY_CODES.map((c) => ({ value: c, label: t(`cities.${c}`) }));
  const languages = LANGUAGE_CODES.map((c) => ({ value: c, label: t(`languages.${c}`) }));
  const params = new URLSearchParams(location.search);
  params.delete('page');
  return (
    <div className="chat-page board-page">
      <h1>{t('board.title')}</h1>
      <p className="muted">{t('board.intro')}</p>

      <Form method="get" className="board-filter card">
        <label className="field">
          <span className="label-text">{t('board.filter.city')}</span>
          <select name="city" defaultValue={query.city ?? ''}>
            <option value="">{t('board.filter.all')}</option>
            {cities.map((c) => (
              <option key={c.value} value={c.value}>
                {c.label}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span className="label-text">{t('board.filter.language')}</span>
          <select name="language" defaultValue={query.language ?? ''}>
            <option value="">{t('board.filter.all')}</option>
            {languages.map((l) => (
              <option key={l.value} value={l.value}>
                {l.label}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="button button-secondary">
          {t('board.filter.apply')}
        </button>
      </Form>

      {viewer?.type === 'traveler' ? (
        viewer.emailVerified ? (
          <Form method="post" className="card board-form" {...getFormProps(form)} aria-labelledby="board-form-title">
            <h2 id="board-form-title">{t('board.form.title')}</h2>
            <FormErrors form={form} />
            {formKey ? <input type="hidden" name={FORM_KEY_FIELD} value={formKey} /> : null}
            <SelectField field={fields.city} label={t('board.form.city')} options={cities} placeholder="" />
            <ChoiceGroup field={fields.languages} legend={t('board.form.languages')} type="checkbox" options={languages} />
            <div className="board-dates">
              <Field field={fields.startDate} label={t('board.form.startDate')} type="date" />
              <Field field={fields.endDate} label={t('board.form.endDate')} type="date" />
            </div>
            <TextareaField field={fields.body} label={t('board.form.body')} maxLength={BOARD_POST_MAX} rows={4} />
            <SubmitButton name="intent" value="post" busy={navigation.state === 'submitting' && navigation.formData?.get('intent') === 'post'} label={t('board.form.submit')} />
          </Form>
        ) : (
          <p className="chat-notice">{t('board.form.verifyEmail')}</p>
        )
      ) : !viewer ? (
        <p>
          <Link to="/login?redirectTo=%2Fboard">{t('board.form.loginToPost')}</Link>
        </p>
      ) : null}

      <PagedList items={posts} empty={t('board.empty')} className="board-list" pagination={pagination} basePath="/board" params={params}>
        {(post) => (
          <li key={post.id} id={`post-${post.id}`} className="card board-post" data-testid="board-post">
            <p className="small muted">
              {t('board.post.by', { name: post.authorName })} · <time dateTime={post.createdAt}>{formatTaipeiDateTime(post.createdAt, i18n.language)}</time>
            </p>
            <p className="small">
              {post.city ? t(`cities.${post.city}`) : null}
              {post.languages.length ? ` · ${post.languages.map((l) => t(`languages.${l}`)).join(t('languages.separator'))}` : null}
              {post.startDate ? ` · ${t('board.post.dates', { from: post.startDate, to: post.endDate ?? post.startDate })}` : null}
            </p>
            <p className="chat-bubble board-body">{post.body}</p>
            {post.masked ? <p className="small muted">{t('board.post.masked')}</p> : null}
            {post.isHidden ? <p className="chat-notice">{t('board.post.hidden', { reason: post.hiddenReason ?? '' })}</p> : null}
            <div className="chat-tools">
              <Link to={`/board/${post.id}`} className="button button-small button-secondary">
                {post.replyCount > 0 ? t('board.replies.link', { count: post.replyCount }) : viewer?.type === 'guide' ? t('board.replies.replyLink') : t('board.replies.openLink')}
              </Link>
              <BoardModeration
                idField="postId"
                id={post.id}
                canDelete={post.canDelete}
                canHide={viewer?.type === 'admin' && !post.isHidden}
                labels={{ delete: t('board.post.delete'), hide: t('board.post.hide') }}
              />
            </div>
          </li>
        )}
      </PagedList>
    </div>
  );
}

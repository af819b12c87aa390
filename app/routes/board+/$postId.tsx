import { limitLog } from '~/http/request-context.server';
import { getFormProps } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { BoardModeration } from '~/components/board-moderation';
import { ChoiceGroup, Field, SelectField, SubmitButton, TextareaField } from '~/components/forms/form-fields';
import { FormErrors } from '~/components/forms/messages';
import { useResetAfterSuccess } from '~/components/forms/use-reset-after-success';
import { useSchemaForm } from '~/components/forms/use-schema-form';
import { getUser, requireUser } from '~/http/session.server';
import { forwardRetryAfter, replyWithError } from '~/http/forms.server';
import { formKeyFor, keyedFormSubmit } from '~/http/form-keys.server';
import { orErrorPage, pageIdParam, readForm } from '~/http/page.server';
import { redirectWithToast } from '~/http/toast.server';
import type { I18nHandle } from '~/i18n/bundles';
import { getFixedT } from '~/i18n/i18n.server';
import { CITY_CODES } from '~/lib/cities';
import { formatTaipeiDateTime } from '~/lib/dates';
import { FORM_KEY_FIELD } from '~/lib/form-key';
import { LANGUAGE_CODES } from '~/lib/languages';
import { pageMeta } from '~/lib/meta';
import {
  BOARD_POST_MAX,
  BOARD_REPLY_MAX,
  boardPostSchema,
  boardReplyHideFormSchema,
  boardReplyIdFormSchema,
  boardReplyIntentSchema,
  boardReplySchema,
} from '~/schemas/board';
import { MESSAGE_MAX, postMessageFormSchema } from '~/schemas/chat';
import { findChatWithPoster, startChatFromBoardPost } from '~/services/messaging/chats.server';
import { createBoardReply, deleteBoardReply, getBoardPost, hideBoardReply, listBoardReplies, updateBoardPost, editableBoardPost } from '~/services/messaging/board.server';

/**
 * /board/:postId (issue 23): one board post with its public replies, oldest first, and the reply form (guides, and
 * the post's author). Every form works without JS; a refused reply comes back with the typed text and the reason.
 */
export const handle: I18nHandle = { i18n: ['board', 'chat'] };
/** The scope of the reply form's one-time keys. */
const replyPath = (postId: number) => `/board/${postId}/reply`;
export const headers = forwardRetryAfter;

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await getUser(request);
  const id = pageIdParam(params.postId);
  const [post, replies] = await orErrorPage(() => Promise.all([getBoardPost(user, id), listBoardReplies(user, id)]));
  const t = await getFixedT(request);
  // The author edits what they wrote, not the masked text the board shows (saving that would store the masks).
  const editable = user && post.canEdit ? await editableBoardPost(user, id) : null;
  // A guide writes to the poster privately: the conversation they already have, if any.
  const chatId = user?.type === 'guide' ? ((await findChatWithPoster(user, id)) ?? null) : null;
  // The reply form's one-time key (docs/decisions/042): a double tap or a resubmit lands on the same reply.
  const replyKey = user ? await formKeyFor(user.id, replyPath(id)) : null;
  return {
    post,
    editable,
    chatId,
    replyKey,
    replies,
    viewer: user ? { id: user.id, type: user.type, emailVerified: user.isEmailVerified } : null,
    title: t('board.replies.pageTitle', { name: post.authorName }),
  };
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(matches, data?.title);

export async function action({ request, params }: ActionFunctionArgs) {
  const { user } = await requireUser(request);
  const id = pageIdParam(params.postId);
  // Access first: a hidden or missing post is the 404 page whatever the form says.
  await orErrorPage(() => getBoardPost(user, id));
  const formData = await readForm(request);
  const which = parseWithZod(formData, { schema: boardReplyIntentSchema });
  if (which.status !== 'success') return data({ form: 'reply' as const, result: which.reply() }, { status: 400 });
  const intent = which.value.intent;
  const schema =
    intent === 'reply'
      ? boardReplySchema
      : intent === 'edit'
        ? boardPostSchema
        : intent === 'message'
          ? postMessageFormSchema
          : intent === 'hide'
            ? boardReplyHideFormSchema
            : boardReplyIdFormSchema;
  const submission = parseWithZod(formData, { schema });
  if (submission.status !== 'success') return data({ form: intent, result: submission.reply() }, { status: 400 });
  try {
    if (intent === 'edit') {
      await updateBoardPost(user, id, boardPostSchema.parse(submission.value));
      return redirectWithToast(`/board/${id}`, { key: 'board.edit.saved', type: 'success' });
    }
    if (intent === 'message') {
      const { chat } = await startChatFromBoardPost(user, { boardPostId: id, message: postMessageFormSchema.parse(submission.value).message }, undefined, limitLog(request));
      return redirectWithToast(`/chat/${chat.id}`, { key: 'board.message.sent', type: 'success' });
    }
    if (intent === 'reply') {
      const value = boardReplySchema.parse(submission.value);
      // A repeated submit of this form (its hidden key, same words) lands on the first reply; other words are a new one.
      return await keyedFormSubmit(
        formData,
        { userId: user.id, path: replyPath(id) },
        value,
        async () => {
          const reply = await createBoardReply(user, id, value, undefined, limitLog(request));
          return redirectWithToast(`/board/${id}#reply-${reply.id}`, { key: 'board.replies.posted', type: 'success' });
        },
        { otherValues: 'run' },
      );
    }
    if (intent === 'hide') {
      const value = boardReplyHideFormSchema.parse(submission.value);
      await hideBoardReply(user, value.replyId, value.reason);
    } else await deleteBoardReply(user, boardReplyIdFormSchema.parse(submission.value).replyId);
    return redirectWithToast(`/board/${id}`, { key: intent === 'hide' ? 'board.replies.hiddenDone' : 'board.replies.deleted', type: 'success' });
  } catch (error) {
    return replyWithError(request, submission, error, { extra: { form: intent } });
  }
}

export default function BoardPost() {
  const { post, editable, chatId, replyKey, replies, viewer } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const { t, i18n } = useTranslation();
  const [form, fields] = useSchemaForm<{ body: string }>({
    id: 'board-reply',
    schema: boardReplySchema,
    lastResult: actionData?.form === 'reply' ? actionData.result : undefined,
  });
  useResetAfterSuccess(form, 'reply', actionData?.form === 'reply');
  const [editForm, editFields] = useSchemaForm<{ city: string; languages: string[]; startDate: string; endDate: string; body: string }>({
    id: 'board-edit',
    schema: boardPostSchema,
    lastResult: actionData?.form === 'edit' ? actionData.result : undefined,
    defaultValue: editable
      ? { city: editable.city ?? '', languages: editable.languages, startDate: editable.startDate ?? '', endDate: editable.endDate ?? '', body: editable.body }
      : undefined,
  });
  const [messageForm, messageFields] = useSchemaForm<{ message: string }>({
    id: 'board-message',
    schema: postMessageFormSchema,
    lastResult: actionData?.form === 'message' ? actionData.result : undefined,
  });
  const cities = CITY_CODES.map((c) => ({ value: c, label: t(`cities.${c}`) }));
  const languages = LANGUAGE_CODES.map((c) => ({ value: c, label: t(`languages.${c}`) }));
  const mayReply = viewer !== null && (viewer.type === 'guide' || viewer.id === post.authorId);
  return (
    <div className="chat-page board-page">
      <p className="small">
        <Link to="/board">{t('board.replies.back')}</Link>
      </p>
      <article className="card board-post" data-testid="board-post">
        <h1 className="h3">{t('board.post.by', { name: post.authorName })}</h1>
        <p className="small muted">
          <time dateTime={post.createdAt}>{formatTaipeiDateTime(post.createdAt, i18n.language)}</time>
          {post.city ? ` · ${t(`cities.${post.city}`)}` : null}
          {post.languages.length ? ` · ${post.languages.map((l) => t(`languages.${l}`)).join(t('languages.separator'))}` : null}
          {post.startDate ? ` · ${t('board.post.dates', { from: post.startDate, to: post.endDate ?? post.startDate })}` : null}
        </p>
        <p className="chat-bubble board-body">{post.body}</p>
        {post.masked ? <p className="small muted">{t('board.post.masked')}</p> : null}
        {post.isHidden ? <p className="chat-notice">{t('board.post.hidden', { reason: post.hiddenReason ?? '' })}</p> : null}
      </article>

      {editable ? (
        <details className="card board-edit" open={actionData?.form === 'edit'}>
          <summary>{t('board.edit.open')}</summary>
          <Form method="post" className="board-form" {...getFormProps(editForm)} aria-labelledby="board-edit-title">
            <h2 id="board-edit-title" className="h3">
              {t('board.edit.title')}
            </h2>
            <FormErrors form={editForm} />
            <SelectField field={editFields.city} label={t('board.form.city')} options={cities} placeholder="" />
            <ChoiceGroup field={editFields.languages} legend={t('board.form.languages')} type="checkbox" options={languages} />
            <div className="board-dates">
              <Field field={editFields.startDate} label={t('board.form.startDate')} type="date" />
              <Field field={editFields.endDate} label={t('board.form.endDate')} type="date" />
            </div>
            <TextareaField field={editFields.body} label={t('board.form.body')} maxLength={BOARD_POST_MAX} rows={4} hint={t('board.edit.hint')} />
            <SubmitButton
              name="intent"
              value="edit"
              busy={navigation.state === 'submitting' && navigation.formData?.get('intent') === 'edit'}
              label={t('board.edit.submit')}
            />
          </Form>
        </details>
      ) : null}

      {viewer?.type === 'guide' && post.authorId !== null ? (
        <section className="card board-message" aria-labelledby="board-message-title">
          <h2 id="board-message-title" className="h3">
            {t('board.message.title', { name: post.authorName })}
          </h2>
          {chatId !== null ? (
            <p className="small">
              <Link to={`/chat/${chatId}`}>{t('board.message.open')}</Link>
            </p>
          ) : null}
          {viewer.emailVerified ? (
            <Form method="post" className="board-form" {...getFormProps(messageForm)}>
              <FormErrors form={messageForm} />
              <TextareaField field={messageFields.message} label={t('board.message.body')} maxLength={MESSAGE_MAX} rows={3} hint={t('board.message.hint')} />
              <SubmitButton
                name="intent"
                value="message"
                busy={navigation.state === 'submitting' && navigation.formData?.get('intent') === 'message'}
                label={t('board.message.submit')}
              />
            </Form>
          ) : (
            <p className="chat-notice">{t('board.message.verifyEmail')}</p>
          )}
        </section>
      ) : null}

      <section aria-labelledby="replies" className="board-replies">
        <h2 id="replies">{t('board.replies.title', { count: replies.length })}</h2>
        {replies.length === 0 ? <p className="muted">{t('board.replies.empty')}</p> : null}
        <ol className="board-reply-list">
          {replies.map((reply) => (
            <li key={reply.id} id={`reply-${reply.id}`} className="card board-reply" data-testid="board-reply">
              <p className="small muted">
                {/* A guide who answered is a link to their page, where the traveler can book them (issue 35). */}
                {reply.authorPublicGuide ? (
                  <Link to={`/guides/${reply.authorId}`} data-testid="reply-guide-link">
                    {t('board.replies.byGuide', { name: reply.authorName })}
                  </Link>
                ) : (
                  t(reply.authorType === 'guide' ? 'board.replies.byGuide' : 'board.replies.by', { name: reply.authorName })
                )}{' '}
                ·{' '}
                <time dateTime={reply.createdAt}>{formatTaipeiDateTime(reply.createdAt, i18n.language)}</time>
              </p>
              <p className="board-body">{reply.body}</p>
              {reply.masked ? <p className="small muted">{t('board.post.masked')}</p> : null}
              {reply.isHidden ? (
                <p className="chat-notice" data-testid="reply-hidden">
                  {viewer?.id === reply.authorId
                    ? t('board.replies.hiddenForAuthor', { reason: reply.hiddenReason ?? '' })
                    : t('board.post.hidden', { reason: reply.hiddenReason ?? '' })}
                </p>
              ) : null}
              <div className="chat-tools">
                <BoardModeration
                  idField="replyId"
                  id={reply.id}
                  canDelete={reply.canDelete}
                  canHide={viewer?.type === 'admin' && !reply.isHidden}
                  labels={{ delete: t('board.replies.delete'), hide: t('board.replies.hide') }}
                />
              </div>
            </li>
          ))}
        </ol>

        {mayReply ? (
          viewer.emailVerified ? (
            <Form method="post" className="card board-form" {...getFormProps(form)} aria-labelledby="reply-form-title">
              <h3 id="reply-form-title">{t('board.replies.formTitle')}</h3>
              <FormErrors form={form} />
              {replyKey ? <input type="hidden" name={FORM_KEY_FIELD} value={replyKey} /> : null}
              <TextareaField field={fields.body} label={t('board.replies.body')} maxLength={BOARD_REPLY_MAX} rows={3} hint={t('board.replies.hint')} />
              <SubmitButton
                name="intent"
                value="reply"
                busy={navigation.state === 'submitting' && navigation.formData?.get('intent') === 'reply'}
                label={t('board.replies.submit')}
              />
            </Form>
          ) : (
            <p className="chat-notice">{t('board.replies.verifyEmail')}</p>
          )
        ) : !viewer ? (
          <p>
            <Link to={`/login?redirectTo=${encodeURIComponent(`/board/${post.id}`)}`}>{t('board.replies.loginToReply')}</Link>
          </p>
        ) : viewer.type === 'traveler' ? (
          <p className="small muted">{t('board.replies.guidesOnly')}</p>
        ) : null}
      </section>
    </div>
  );
}

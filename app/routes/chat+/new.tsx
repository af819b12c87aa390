import { limitLog } from '~/http/request-context.server';
import { getFormProps } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { Avatar } from '~/components/avatar';
import { SubmitButton, TextareaField } from '~/components/forms/form-fields';
import { FormErrors } from '~/components/forms/messages';
import { useSchemaForm } from '~/components/forms/use-schema-form';
import { requireUser } from '~/http/session.server';
import { forwardRetryAfter, replyWithError } from '~/http/forms.server';
import { orErrorPage, pageIdParam, readForm } from '~/http/page.server';
import type { I18nHandle } from '~/i18n/bundles';
import { getFixedT } from '~/i18n/i18n.server';
import { parseIdParam } from '~/lib/ids';
import { pageMeta } from '~/lib/meta';
import { chatStartSchema, MESSAGE_MAX, orderChatFormSchema } from '~/schemas/chat';
import { askContext, orderChatContext, startChat, startChatFromOrder } from '~/services/messaging/chats.server';

/**
 * /chat/new?guideId=…[&orderId=…] (issue 23): "Ask a question" from a guide's page or an order. A traveler who
 * already talks with this guide goes straight to that conversation (with an order, the first message links it).
 * /chat/new?orderId=… (issue 35): either party of an order, the guide too, writes to the other; the pair's
 * conversation if they have one, else this form opens it with the first message.
 */
export const handle: I18nHandle = { i18n: ['chat'] };
export const headers = forwardRetryAfter;

export async function loader({ request }: LoaderFunctionArgs) {
  const { user } = await requireUser(request);
  const url = new URL(request.url);
  const t = await getFixedT(request);
  if (!url.searchParams.has('guideId')) {
    const context = await orErrorPage(() => orderChatContext(user, pageIdParam(url.searchParams.get('orderId'))), { existencePrivate: true });
    if (context.chatId) throw redirect(`/chat/${context.chatId}#chat-end`);
    const title = t(context.role === 'guide' ? 'chat.ask.titleTraveler' : 'chat.ask.title', { name: context.other.name });
    return { mode: 'order' as const, to: context.other, orderId: context.order.id, emailVerified: user.isEmailVerified, title };
  }
  const guideId = pageIdParam(url.searchParams.get('guideId'));
  const orderId = parseIdParam(url.searchParams.get('orderId')) ?? null;
  const context = await orErrorPage(() => askContext(user, guideId));
  if (context.chatId && !orderId) throw redirect(`/chat/${context.chatId}`);
  return { mode: 'guide' as const, to: context.guide, orderId, emailVerified: user.isEmailVerified, title: t('chat.ask.title', { name: context.guide.name }) };
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(matches, data?.title);

export async function action({ request }: ActionFunctionArgs) {
  const { user } = await requireUser(request);
  const formData = await readForm(request);
  if (!formData.has('guideId')) {
    // Access first: someone who is not a party of the order gets the 404 page whatever the message says.
    const orderId = parseIdParam(String(formData.get('orderId') ?? ''));
    if (orderId !== undefined) await orErrorPage(() => orderChatContext(user, orderId), { existencePrivate: true });
    const submission = parseWithZod(formData, { schema: orderChatFormSchema });
    if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 });
    try {
      const { chat } = await startChatFromOrder(user, submission.value, undefined, limitLog(request));
      return redirect(`/chat/${chat.id}#chat-end`);
    } catch (error) {
      return replyWithError(request, submission, error);
    }
  }
  const submission = parseWithZod(formData, { schema: chatStartSchema });
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 });
  try {
    const { chat } = await startChat(user, submission.value, undefined, limitLog(request));
    return redirect(`/chat/${chat.id}#chat-end`);
  } catch (error) {
    return replyWithError(request, submission, error);
  }
}

export default function AskQuestion() {
  const { mode, to, orderId, emailVerified, title } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const { t } = useTranslation();
  const [form, fields] = useSchemaForm<{ message: string; guideId: string; orderId: string }>({
    id: 'ask',
    schema: mode === 'order' ? orderChatFormSchema : chatStartSchema,
    lastResult: actionData?.result,
  });
  return (
    <div className="chat-page">
      <div className="chat-head">
        <Avatar src={to.avatar} alt="" size={48} />
        <h1>{title}</h1>
      </div>
      {mode === 'guide' ? <p className="muted">{t('chat.ask.intro')}</p> : null}
      {orderId ? (
        <p>
          <Link to={`/orders/${orderId}`}>{t('chat.ask.aboutOrder', { id: orderId })}</Link>
        </p>
      ) : null}
      <p className="chat-notice">{t('chat.conversation.maskedNotice')}</p>
      {emailVerified ? null : <p className="chat-notice">{t('chat.conversation.verifyEmail')}</p>}
      <Form method="post" className="chat-send card" {...getFormProps(form)}>
        {mode === 'guide' ? <input type="hidden" name="guideId" value={to.id} /> : null}
        {orderId ? <input type="hidden" name="orderId" value={orderId} /> : null}
        <FormErrors form={form} />
        <TextareaField field={fields.message} label={t('chat.conversation.label')} placeholder={t('chat.conversation.placeholder')} maxLength={MESSAGE_MAX} rows={5} />
        <div className="chat-send-row">
          <SubmitButton
            busy={navigation.state === 'submitting'}
            label={mode === 'guide' ? t('chat.ask.submit') : t('chat.conversation.send')}
            busyLabel={t('chat.conversation.sending')}
          />
        </div>
      </Form>
    </div>
  );
}

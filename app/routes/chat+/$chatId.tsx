import { limitLog } from '~/http/request-context.server';
import { parseWithZod } from '@conform-to/zod/v4';
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { useCallback, useEffect, useRef, useState, type FormEvent, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Avatar } from '~/components/avatar';
import { useHydrated } from '~/components/hydrated';
import { SubmitButton, TextareaField } from '~/components/forms/form-fields';
import { FormErrors } from '~/components/forms/messages';
import { useSchemaForm } from '~/components/forms/use-schema-form';
import { requireUser } from '~/http/session.server';
import { forwardRetryAfter, replyWithError } from '~/http/forms.server';
import { orErrorPage, pageIdParam, readForm } from '~/http/page.server';
import { redirectWithToast } from '~/http/toast.server';
import type { I18nHandle } from '~/i18n/bundles';
import { getFixedT } from '~/i18n/i18n.server';
import { formatTaipeiDateTime } from '~/lib/dates';
import { parseIdParam } from '~/lib/ids';
import { pageMeta } from '~/lib/meta';
import { chatPageFormSchema, MESSAGE_MAX, MESSAGE_PAGE_SIZE, type ChatMessageView } from '~/schemas/chat';
import { AppError } from '~/services/platform/errors.server';
import { assertChatReadable, getChat, listMessages, markChatRead, reportedMessageIds, reportMessage, sendMessage, setChatBlocked } from '~/services/messaging/chats.server';
import { BlockConfirm, merge, MessageItem, PendingItem, ReportButton, ReportForm, useLiveConversation } from './__conversation';

/**
 * /chat/:chatId (SPEC §2, issue 23): one conversation, newest message at the bottom, older ones a page at a time.
 * Without JS the send form posts here and comes back; with JS a message shows at once as "sending", goes to
 * POST /api/v1/chats/{id}/messages with its client id (a retry cannot store it twice), and new messages and read
 * receipts arrive over the socket (app/components/realtime.tsx re-dispatches them as window events). On every
 * (re)connect the page asks for the messages after the last one it has (docs/decisions/022-chat-delivery.md).
 */
export const handle: I18nHandle = { i18n: ['chat'] };
export const headers = forwardRetryAfter;

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { user } = await requireUser(request);
  const id = pageIdParam(params.chatId);
  const before = parseIdParam(new URL(request.url).searchParams.get('before'));
  const [detail, page, reportedIds] = await orErrorPage(
    () => Promise.all([getChat(user, id), listMessages(user, id, { before, limit: MESSAGE_PAGE_SIZE }), reportedMessageIds(user, id)]),
    { existencePrivate: true },
  );
  // Opening the conversation reads it: the sender sees the receipt, the header count drops.
  const { unreadCount } = await markChatRead(user, id);
  const t = await getFixedT(request);
  const viewerRole = user.id === detail.chat.travelerId ? 'traveler' : user.id === detail.chat.guideId ? 'guide' : 'admin';
  return {
    ...detail,
    ...page,
    reportedIds,
    before: before ?? null,
    viewer: { id: user.id, role: viewerRole, emailVerified: user.isEmailVerified },
    // The no-JS form's client id: a double submit stores one message.
    clientId: crypto.randomUUID(),
    headerUnreadMessages: unreadCount,
    title: t('chat.conversation.title', { name: detail.chat.other.name }),
  };
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(matches, data?.title);

export async function action({ request, params }: ActionFunctionArgs) {
  const { user } = await requireUser(request);
  const id = pageIdParam(params.chatId);
  // Access first: a stranger gets the 404 page whatever the form says.
  await orErrorPage(() => assertChatReadable(user, id), { existencePrivate: true });
  const submission = parseWithZod(await readForm(request), { schema: chatPageFormSchema });
  const form = (intent: string | undefined) => (intent === 'reportConfirm' ? ('report' as const) : ('send' as const));
  if (submission.status !== 'success') return data({ form: form(submission.payload.intent as string), result: submission.reply() }, { status: 400 });
  const value = submission.value;
  try {
    if (value.intent === 'send') {
      await sendMessage(user, id, { text: value.text, clientId: value.clientId }, undefined, limitLog(request));
      return redirect(`/chat/${id}#chat-end`);
    }
    // Reporting and blocking ask first (issue 35): without JS these answers are the question.
    if (value.intent === 'report') return data({ form: 'ask' as const, reporting: value.messageId });
    if (value.intent === 'reportConfirm') {
      await reportMessage(user, value.messageId, { reasonCode: value.reasonCode, reason: value.reason });
      return redirectWithToast(`/chat/${id}#message-${value.messageId}`, { key: 'chat.conversation.reported', type: 'success' });
    }
    if (value.intent === 'block' && value.confirmed !== 'yes') return data({ form: 'ask' as const, confirmBlock: true });
    await setChatBlocked(user, id, value.intent === 'block');
    return redirect(`/chat/${id}`);
  } catch (error) {
    // A message the other side's block refused: the form comes back with the text, saying the conversation is closed.
    const closed = value.intent === 'send' && error instanceof AppError && error.code === 'FORBIDDEN';
    return replyWithError(request, submission, error, { extra: { form: form(value.intent), closed } });
  }
}

export default function Conversation() {
  const loaded = useLoaderData<typeof loader>();
  const { chat, viewer, hasMore, before } = loaded;
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const { t, i18n } = useTranslation();
  const hydrated = useHydrated();
  const endRef = useRef<HTMLDivElement>(null);
  const live = before === null;
  const answer = actionData && 'result' in actionData ? actionData : undefined;
  const [form, fields] = useSchemaForm<{ text: string; clientId: string }>({
    id: 'chat-send',
    schema: chatPageFormSchema,
    lastResult: answer?.form === 'send' ? answer.result : undefined,
  });
  // The other side blocked while this page was open: sending says so at once and keeps the text (issue 35).
  const [closed, setClosed] = useState(false);
  const [sendError, setSendError] = useState<string | null>(null);
  // Reporting and blocking ask first: in place with JS, the action's answer without.
  const asked = actionData && 'form' in actionData && actionData.form === 'ask' ? actionData : undefined;
  const [reporting, setReporting] = useState<number | null>(null);
  const [askingBlock, setAskingBlock] = useState(false);
  const reportOpen = reporting ?? (asked && 'reporting' in asked ? asked.reporting : null) ?? (answer?.form === 'report' ? Number(answer.result.initialValue?.messageId) : null);
  const blockOpen = askingBlock || (asked !== undefined && 'confirmBlock' in asked);
  // A report or a block that went through closes its question (not any revalidation: a message may arrive meanwhile).
  const reportedKey = loaded.reportedIds.join(',');
  const reported = new Set(loaded.reportedIds);
  useEffect(() => {
    setReporting(null);
    setAskingBlock(false);
  }, [reportedKey, chat.blocked]);

  const { messages, setMessages, pending, setPending } = useLiveConversation(chat.id, viewer.id, live, loaded.messages);
  const lastCount = messages.length + pending.length;
  useEffect(() => {
    if (live) endRef.current?.scrollIntoView({ block: 'end' });
  }, [lastCount, live]);

  const post = useCallback(
    async (clientId: string, text: string) => {
      setPending((list) => [...list.filter((p) => p.clientId !== clientId), { clientId, text, status: 'sending' }]);
      try {
        const response = await fetch(`/api/v1/chats/${chat.id}/messages`, {
          method: 'POST',
          credentials: 'same-origin',
          headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
          body: JSON.stringify({ text, clientId }),
        });
        if (response.status >= 400 && response.status < 500 && response.status !== 408 && response.status !== 429) {
          // A refusal a retry cannot change (the other side blocked the conversation, …): say it, keep the text.
          const body = (await response.json().catch(() => null)) as { code?: string; message?: string } | null;
          setPending((list) => list.filter((p) => p.clientId !== clientId));
          const box = document.getElementById(fields.text.id);
          if (box instanceof HTMLTextAreaElement && !box.value.trim()) box.value = text;
          if (response.status === 403 && body?.code === 'FORBIDDEN') setClosed(true);
          else setSendError(body?.message ?? t('chat.conversation.failed'));
          return;
        }
        if (!response.ok) throw new Error(String(response.status));
        const body = (await response.json()) as { data: { message: ChatMessageView } };
        setMessages((list) => merge(list, [body.data.message]));
        setPending((list) => list.filter((p) => p.clientId !== clientId));
      } catch {
        setPending((list) => list.map((p) => (p.clientId === clientId ? { ...p, status: 'failed' } : p)));
      }
    },
    [chat.id, fields.text.id, t],
  );

  // With JS: the message shows at once and is sent in the background; without, the form posts to the action.
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    const field = event.currentTarget.elements.namedItem('text');
    if (!(field instanceof HTMLTextAreaElement)) return;
    const text = field.value.trim();
    if (!text || text.length > MESSAGE_MAX) return;
    event.preventDefault();
    field.value = '';
    setSendError(null);
    void post(crypto.randomUUID(), text);
  };

  const isClosed = closed || (chat.blocked && !chat.canSend);
  const canSend = chat.canSend && viewer.emailVerified && !closed;
  // A message the block refused stays in the box (with JS the box stays; without, the answer carries the text).
  const keepBox = isClosed && (closed || (answer !== undefined && 'closed' in answer && answer.closed === true));
  const isParticipant = viewer.role !== 'admin';
  const time = (iso: string) => formatTaipeiDateTime(iso, i18n.language);
  const askBlock = (event: MouseEvent<HTMLButtonElement>) => {
    event.preventDefault();
    setAskingBlock(true);
  };
  return (
    <div className="chat-page">
      <p>
        <Link to="/chat">← {t('chat.conversation.back')}</Link>
      </p>
      <div className="chat-head">
        <Avatar src={chat.other.avatar} alt="" size={48} />
        <h1>{t('chat.conversation.title', { name: chat.other.name })}</h1>
        {chat.orderId ? (
          <Link to={`/orders/${chat.orderId}`} data-testid="chat-order">
            {t('chat.conversation.order', { id: chat.orderId })}
          </Link>
        ) : null}
      </div>
      {isParticipant && chat.masking ? <p className="chat-notice" data-testid="masked-notice">{t('chat.conversation.maskedNotice')}</p> : null}
      {!isParticipant ? <p className="chat-notice">{t('chat.conversation.adminView')}</p> : null}
      {isParticipant && keepBox ? (
        <p className="chat-notice chat-closed" role="alert" data-testid="chat-closed">
          {t('chat.conversation.closed')}
        </p>
      ) : (chat.blocked || closed) && isParticipant ? (
        <p className="chat-notice" role="status" data-testid="chat-blocked">
          {chat.canSend && !closed ? t('chat.conversation.blockedByYou') : t('chat.conversation.blockedByOther')}
        </p>
      ) : null}

      <div role="log" aria-label={t('chat.conversation.messages')} aria-live="polite">
        <ol className="chat-messages" data-testid="chat-messages">
          {hasMore ? (
            <li className="chat-older">
              <Link to={`/chat/${chat.id}?before=${messages[0]?.id ?? ''}`}>{t('chat.conversation.older')}</Link>
            </li>
          ) : null}
          {messages.length === 0 && pending.length === 0 ? <li className="muted">{t('chat.conversation.empty')}</li> : null}
          {messages.map((m) => (
            <MessageItem
              key={m.id}
              message={m}
              mine={m.senderId === viewer.id}
              participant={isParticipant}
              time={time(m.createdAt)}
              tool={m.senderId !== viewer.id && isParticipant && !m.hidden ? <ReportButton messageId={m.id} reported={reported.has(m.id)} onOpen={hydrated ? setReporting : undefined} /> : null}
              panel={
                reportOpen === m.id && !reported.has(m.id) ? (
                  <ReportForm
                    chatId={chat.id}
                    messageId={m.id}
                    lastResult={answer?.form === 'report' ? answer.result : undefined}
                    busy={navigation.state === 'submitting' && navigation.formData?.get('intent') === 'reportConfirm'}
                    onCancel={hydrated ? () => setReporting(null) : undefined}
                  />
                ) : null
              }
            />
          ))}
          {pending.map((p) => (
            <PendingItem key={p.clientId} pending={p} onRetry={() => void post(p.clientId, p.text)} />
          ))}
        </ol>
      </div>
      {!live ? (
        <p>
          <Link to={`/chat/${chat.id}#chat-end`}>{t('chat.conversation.back')}</Link>
        </p>
      ) : null}
      <div id="chat-end" ref={endRef} />

      {isParticipant && (canSend || keepBox) && live ? (
        <Form method="post" className="chat-send" id={form.id} onSubmit={onSubmit} aria-labelledby="chat-send-label">
          {keepBox ? null : <FormErrors form={form} />}
          {sendError ? <p className="form-error" role="alert">{sendError}</p> : null}
          <input type="hidden" name="clientId" value={loaded.clientId} />
          <TextareaField
            field={fields.text}
            label={<span id="chat-send-label">{t('chat.conversation.label')}</span>}
            placeholder={t('chat.conversation.placeholder')}
            maxLength={MESSAGE_MAX}
            rows={3}
          />
          <div className="chat-send-row">
            <SubmitButton
              name="intent"
              value="send"
              disabled={!canSend}
              busy={navigation.state === 'submitting' && navigation.formData?.get('intent') === 'send'}
              label={t('chat.conversation.send')}
            />
          </div>
        </Form>
      ) : null}
      {isParticipant && !viewer.emailVerified ? <p className="chat-notice">{t('chat.conversation.verifyEmail')}</p> : null}

      {isParticipant && blockOpen && !chat.blocked ? (
        <BlockConfirm
          chatId={chat.id}
          name={chat.other.name}
          busy={navigation.state === 'submitting' && navigation.formData?.get('intent') === 'block'}
          onCancel={hydrated ? () => setAskingBlock(false) : undefined}
        />
      ) : isParticipant ? (
        <div className="chat-tools">
          <Form method="post" action={chat.blocked ? undefined : `/chat/${chat.id}#block-confirm`}>
            {chat.blocked && chat.canSend ? (
              <button type="submit" name="intent" value="unblock" className="button button-small button-secondary">
                {t('chat.conversation.unblock')}
              </button>
            ) : !chat.blocked ? (
              <button type="submit" name="intent" value="block" className="button button-small button-secondary" onClick={askBlock}>
                {t('chat.conversation.block')}
              </button>
            ) : null}
          </Form>
        </div>
      ) : null}
    </div>
  );
}

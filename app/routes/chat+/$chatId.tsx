import { limitLog } from '~/http/request-context.server';
import { parseWithZod } from '@conform-to/zod/v4';
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Avatar } from '~/components/avatar';
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
import { chatPageFormSchema, MESSAGE_MAX, MESSAGE_PAGE_SIZE, type ChatMessageView, type MessageReadEvent } from '~/schemas/chat';
import { assertChatReadable, getChat, listMessages, markChatRead, reportMessage, sendMessage, setChatBlocked } from '~/services/chats.server';

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
  const [detail, page] = await orErrorPage(
    () => Promise.all([getChat(user, id), listMessages(user, id, { before, limit: MESSAGE_PAGE_SIZE })]),
    { existencePrivate: true },
  );
  // Opening the conversation reads it: the sender sees the receipt, the header count drops.
  const { unreadCount } = await markChatRead(user, id);
  const t = await getFixedT(request);
  const viewerRole = user.id === detail.chat.travelerId ? 'traveler' : user.id === detail.chat.guideId ? 'guide' : 'admin';
  return {
    ...detail,
    ...page,
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
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 });
  const value = submission.value;
  try {
    if (value.intent === 'send') {
      await sendMessage(user, id, { text: value.text, clientId: value.clientId }, undefined, limitLog(request));
      return redirect(`/chat/${id}#chat-end`);
    }
    if (value.intent === 'report') {
      await reportMessage(user, value.messageId, undefined);
      return redirectWithToast(`/chat/${id}`, { key: 'chat.conversation.reported', type: 'success' });
    }
    await setChatBlocked(user, id, value.intent === 'block');
    return redirect(`/chat/${id}`);
  } catch (error) {
    return replyWithError(request, submission, error);
  }
}

type Pending = { clientId: string; text: string; status: 'sending' | 'failed' };

/** Adds messages by id (an event and a catch-up may bring the same one), oldest first. */
function merge(list: ChatMessageView[], more: ChatMessageView[]): ChatMessageView[] {
  const byId = new Map(list.map((m) => [m.id, m]));
  for (const m of more) byId.set(m.id, { ...byId.get(m.id), ...m, readAt: m.readAt ?? byId.get(m.id)?.readAt ?? null });
  return [...byId.values()].sort((a, b) => a.id - b.id);
}

export default function Conversation() {
  const loaded = useLoaderData<typeof loader>();
  const { chat, viewer, hasMore, before } = loaded;
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const { t, i18n } = useTranslation();
  const [messages, setMessages] = useState<ChatMessageView[]>(loaded.messages);
  const [pending, setPending] = useState<Pending[]>([]);
  const endRef = useRef<HTMLDivElement>(null);
  const live = before === null;
  const [form, fields] = useSchemaForm<{ text: string; clientId: string }>({
    id: 'chat-send',
    schema: chatPageFormSchema,
    lastResult: actionData?.result,
  });

  // Loader data after a revalidation (a socket event, a form) joins what the page already shows.
  useEffect(() => setMessages((list) => (live ? merge(list, loaded.messages) : loaded.messages)), [loaded.messages, live]);

  const lastId = useRef(0);
  lastId.current = messages.length ? messages[messages.length - 1]!.id : 0;

  const catchUp = useCallback(async () => {
    const response = await fetch(`/api/v1/chats/${chat.id}/messages?after=${lastId.current}&limit=100`, { credentials: 'same-origin' });
    if (!response.ok) return;
    const body = (await response.json()) as { data: { messages: ChatMessageView[] } };
    setMessages((list) => merge(list, body.data.messages));
  }, [chat.id]);

  useEffect(() => {
    if (!live) return;
    const onMessage = (event: Event) => {
      const message = (event as CustomEvent<ChatMessageView>).detail;
      if (message.chatId !== chat.id) return;
      setMessages((list) => merge(list, [message]));
      setPending((list) => list.filter((p) => p.clientId !== message.clientId));
    };
    const onRead = (event: Event) => {
      const read = (event as CustomEvent<MessageReadEvent>).detail;
      if (read.chatId !== chat.id || read.readerId === viewer.id) return;
      setMessages((list) => list.map((m) => (m.senderId === viewer.id && m.id <= read.upToId && !m.readAt ? { ...m, readAt: read.readAt } : m)));
    };
    const onConnect = () => void catchUp();
    window.addEventListener('realtime:new_message', onMessage);
    window.addEventListener('realtime:message_read', onRead);
    window.addEventListener('realtime:connect', onConnect);
    return () => {
      window.removeEventListener('realtime:new_message', onMessage);
      window.removeEventListener('realtime:message_read', onRead);
      window.removeEventListener('realtime:connect', onConnect);
    };
  }, [chat.id, viewer.id, live, catchUp]);

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
        if (!response.ok) throw new Error(String(response.status));
        const body = (await response.json()) as { data: { message: ChatMessageView } };
        setMessages((list) => merge(list, [body.data.message]));
        setPending((list) => list.filter((p) => p.clientId !== clientId));
      } catch {
        setPending((list) => list.map((p) => (p.clientId === clientId ? { ...p, status: 'failed' } : p)));
      }
    },
    [chat.id],
  );

  // With JS: the message shows at once and is sent in the background; without, the form posts to the action.
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    const field = event.currentTarget.elements.namedItem('text');
    if (!(field instanceof HTMLTextAreaElement)) return;
    const text = field.value.trim();
    if (!text || text.length > MESSAGE_MAX) return;
    event.preventDefault();
    field.value = '';
    void post(crypto.randomUUID(), text);
  };

  const canSend = chat.canSend && viewer.emailVerified;
  const isParticipant = viewer.role !== 'admin';
  const time = (iso: string) => formatTaipeiDateTime(iso, i18n.language);
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
      {chat.blocked && isParticipant ? (
        <p className="chat-notice" role="status">
          {chat.canSend ? t('chat.conversation.blockedByYou') : t('chat.conversation.blockedByOther')}
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
          {messages.map((m) => {
            const mine = m.senderId === viewer.id;
            return (
              <li key={m.id} className={mine ? 'chat-message is-mine' : 'chat-message'} data-testid="chat-message" data-message-id={m.id}>
                {m.hidden && !m.text ? (
                  <p className="chat-bubble chat-removed">{t('chat.conversation.removed')}</p>
                ) : (
                  <p className="chat-bubble">{m.text}</p>
                )}
                <span className="chat-meta">
                  <time dateTime={m.createdAt}>{time(m.createdAt)}</time>
                  {mine && isParticipant ? <span data-testid="message-status">{m.readAt ? t('chat.conversation.read') : t('chat.conversation.sent')}</span> : null}
                  {m.masked ? <span>{t('chat.conversation.masked')}</span> : null}
                  {m.hidden && m.text ? <span>{t('chat.conversation.hiddenForOthers')}</span> : null}
                  {!mine && isParticipant && !m.hidden ? (
                    <Form method="post">
                      <input type="hidden" name="messageId" value={m.id} />
                      <button type="submit" name="intent" value="report" className="link-button">
                        {t('chat.conversation.report')}
                      </button>
                    </Form>
                  ) : null}
                </span>
              </li>
            );
          })}
          {pending.map((p) => (
            <li key={p.clientId} className={`chat-message is-mine is-${p.status}`} data-testid="chat-message" data-status={p.status}>
              <p className="chat-bubble">{p.text}</p>
              <span className="chat-meta">
                {p.status === 'sending' ? (
                  <span data-testid="message-status">{t('chat.conversation.sending')}</span>
                ) : (
                  <>
                    <span role="alert">{t('chat.conversation.failed')}</span>
                    <button type="button" className="link-button" onClick={() => void post(p.clientId, p.text)}>
                      {t('chat.conversation.retry')}
                    </button>
                  </>
                )}
              </span>
            </li>
          ))}
        </ol>
      </div>
      {!live ? (
        <p>
          <Link to={`/chat/${chat.id}#chat-end`}>{t('chat.conversation.back')}</Link>
        </p>
      ) : null}
      <div id="chat-end" ref={endRef} />

      {isParticipant && canSend && live ? (
        <Form method="post" className="chat-send" id={form.id} onSubmit={onSubmit} aria-labelledby="chat-send-label">
          <FormErrors form={form} />
          <input type="hidden" name="clientId" value={loaded.clientId} />
          <TextareaField
            field={fields.text}
            label={<span id="chat-send-label">{t('chat.conversation.label')}</span>}
            placeholder={t('chat.conversation.placeholder')}
            maxLength={MESSAGE_MAX}
            rows={3}
          />
          <div className="chat-send-row">
            <SubmitButton name="intent" value="send" busy={navigation.state === 'submitting' && navigation.formData?.get('intent') === 'send'} label={t('chat.conversation.send')} />
          </div>
        </Form>
      ) : null}
      {isParticipant && !viewer.emailVerified ? <p className="chat-notice">{t('chat.conversation.verifyEmail')}</p> : null}

      {isParticipant ? (
        <div className="chat-tools">
          <Form method="post">
            {chat.blocked && chat.canSend ? (
              <button type="submit" name="intent" value="unblock" className="button button-small button-secondary">
                {t('chat.conversation.unblock')}
              </button>
            ) : !chat.blocked ? (
              <button type="submit" name="intent" value="block" className="button button-small button-secondary">
                {t('chat.conversation.block')}
              </button>
            ) : null}
          </Form>
        </div>
      ) : null}
    </div>
  );
}

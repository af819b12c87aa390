import { getFormProps } from '@conform-to/react';
import { Form, Link, useLocation } from '@remix-run/react';
import { useCallback, useEffect, useRef, useState, type Dispatch, type MouseEvent, type ReactNode, type SetStateAction } from 'react';
import { useTranslation } from 'react-i18next';
import type { SubmissionResult } from '@conform-to/react';
import { ChoiceGroup, SubmitButton, TextareaField } from '~/components/forms/form-fields';
import { FormErrors } from '~/components/forms/messages';
import { useSchemaForm } from '~/components/forms/use-schema-form';
import { CHAT_REPORT_NOTE_MAX, CHAT_REPORT_REASONS } from '~/lib/chat-report-reasons';
import { chatPageFormSchema, type ChatMessageView, type MessageReadEvent } from '~/schemas/chat';

/** The conversation page's private parts (app/routes/chat+/$chatId.tsx): the report form, the block question. */

export type Pending = { clientId: string; text: string; status: 'sending' | 'failed' };

/** Adds messages by id (an event and a catch-up may bring the same one), oldest first. */
export function merge(list: ChatMessageView[], more: ChatMessageView[]): ChatMessageView[] {
  const byId = new Map(list.map((m) => [m.id, m]));
  for (const m of more) byId.set(m.id, { ...byId.get(m.id), ...m, readAt: m.readAt ?? byId.get(m.id)?.readAt ?? null });
  return [...byId.values()].sort((a, b) => a.id - b.id);
}

/** Moves focus to a panel that just opened (a question asked in place), so a screen reader reads it. */
function useFocusOnOpen<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  useEffect(() => ref.current?.focus(), []);
  return ref;
}

/**
 * The 檢舉 button of a message the other side sent, or "reported" once the viewer reported it (issue 35: the button
 * stayed and could report again). Without JS the button asks the server for the reason form; with JS it opens it
 * in place.
 */
export function ReportButton({ messageId, reported, onOpen }: { messageId: number; reported: boolean; onOpen?: (id: number) => void }) {
  const { t } = useTranslation();
  const location = useLocation();
  if (reported) {
    return (
      <span className="chat-reported" data-testid="message-reported">
        {t('chat.conversation.reportedMark')}
      </span>
    );
  }
  const open = (event: MouseEvent<HTMLButtonElement>) => {
    if (!onOpen) return;
    event.preventDefault();
    onOpen(messageId);
  };
  return (
    // Without JS the answer opens at the form (the action's fragment), not at the top of a long conversation.
    <Form method="post" action={`${location.pathname}${location.search}#report-${messageId}`}>
      <input type="hidden" name="messageId" value={messageId} />
      <button type="submit" name="intent" value="report" className="link-button chat-report" onClick={open} aria-haspopup="dialog">
        {t('chat.conversation.report')}
      </button>
    </Form>
  );
}

/** Asks why a message is reported (a fixed list, and the reporter's words, needed with "other"), then sends it. */
export function ReportForm({
  chatId,
  messageId,
  lastResult,
  busy,
  onCancel,
}: {
  chatId: number;
  messageId: number;
  lastResult?: SubmissionResult<string[]>;
  busy: boolean;
  onCancel?: () => void;
}) {
  const { t } = useTranslation();
  const panel = useFocusOnOpen<HTMLDivElement>();
  const [form, fields] = useSchemaForm<{ reasonCode: string; reason: string }>({ id: `chat-report-${messageId}`, schema: chatPageFormSchema, lastResult });
  const reasons = CHAT_REPORT_REASONS.map((code) => ({ value: code, label: t(`chat.reportReasons.${code}`) }));
  return (
    <div id={`report-${messageId}`} className="card chat-report-form" role="dialog" aria-labelledby={`report-title-${messageId}`} tabIndex={-1} ref={panel} data-testid="report-form">
      <h2 className="h4" id={`report-title-${messageId}`}>
        {t('chat.conversation.reportTitle')}
      </h2>
      <p className="small muted">{t('chat.conversation.reportIntro')}</p>
      <Form method="post" {...getFormProps(form)} className="board-form">
        <input type="hidden" name="messageId" value={messageId} />
        <FormErrors form={form} />
        <ChoiceGroup field={fields.reasonCode} legend={t('chat.conversation.reportReason')} type="radio" options={reasons} />
        <TextareaField field={fields.reason} label={t('chat.conversation.reportNote')} maxLength={CHAT_REPORT_NOTE_MAX} rows={3} />
        <div className="chat-tools">
          <SubmitButton name="intent" value="reportConfirm" busy={busy} label={t('chat.conversation.reportSubmit')} className="button button-danger" />
          <CancelStep chatId={chatId} onCancel={onCancel} />
        </div>
      </Form>
    </div>
  );
}

/** Blocking asks first and says what it does (issue 35); without JS this is the server's answer to the block button. */
export function BlockConfirm({ chatId, name, busy, onCancel }: { chatId: number; name: string; busy: boolean; onCancel?: () => void }) {
  const { t } = useTranslation();
  const panel = useFocusOnOpen<HTMLDivElement>();
  return (
    <div id="block-confirm" className="card chat-block-confirm" role="alertdialog" aria-labelledby="block-title" aria-describedby="block-explain" tabIndex={-1} ref={panel} data-testid="block-confirm">
      <h2 className="h4" id="block-title">
        {t('chat.conversation.blockTitle')}
      </h2>
      <p id="block-explain">{t('chat.conversation.blockExplain', { name })}</p>
      <Form method="post" className="chat-tools">
        <input type="hidden" name="confirmed" value="yes" />
        <SubmitButton name="intent" value="block" busy={busy} label={t('chat.conversation.block')} className="button button-danger" />
        <CancelStep chatId={chatId} onCancel={onCancel} />
      </Form>
    </div>
  );
}

/** One message of the conversation: the bubble, its time and state, its `tool` (the report button) and `panel` (its form). */
export function MessageItem({
  message: m,
  mine,
  participant,
  time,
  tool,
  panel,
}: {
  message: ChatMessageView;
  mine: boolean;
  participant: boolean;
  time: string;
  tool?: ReactNode;
  panel?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <li id={`message-${m.id}`} className={mine ? 'chat-message is-mine' : 'chat-message'} data-testid="chat-message" data-message-id={m.id}>
      {m.hidden && !m.text ? <p className="chat-bubble chat-removed">{t('chat.conversation.removed')}</p> : <p className="chat-bubble">{m.text}</p>}
      <span className="chat-meta">
        <time dateTime={m.createdAt}>{time}</time>
        {mine && participant ? <span data-testid="message-status">{m.readAt ? t('chat.conversation.read') : t('chat.conversation.sent')}</span> : null}
        {m.masked ? <span>{t('chat.conversation.masked')}</span> : null}
        {m.hidden && m.text ? <span>{t('chat.conversation.hiddenForOthers')}</span> : null}
        {tool}
      </span>
      {panel}
    </li>
  );
}

/** A message still on its way (with JS): "sending", or failed with a retry (a lost connection, a server error). */
export function PendingItem({ pending: p, onRetry }: { pending: Pending; onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <li className={`chat-message is-mine is-${p.status}`} data-testid="chat-message" data-status={p.status}>
      <p className="chat-bubble">{p.text}</p>
      <span className="chat-meta">
        {p.status === 'sending' ? (
          <span data-testid="message-status">{t('chat.conversation.sending')}</span>
        ) : (
          <>
            <span role="alert">{t('chat.conversation.failed')}</span>
            <button type="button" className="link-button" onClick={onRetry}>
              {t('chat.conversation.retry')}
            </button>
          </>
        )}
      </span>
    </li>
  );
}

/**
 * The conversation's messages as they arrive: loader data after a revalidation, socket events (new messages, read
 * receipts) and, on every (re)connect, the messages after the last one the page has (docs/decisions/022).
 */
export function useLiveConversation(
  chatId: number,
  viewerId: number,
  live: boolean,
  loadedMessages: ChatMessageView[],
): { messages: ChatMessageView[]; setMessages: Dispatch<SetStateAction<ChatMessageView[]>>; pending: Pending[]; setPending: Dispatch<SetStateAction<Pending[]>> } {
  const [messages, setMessages] = useState<ChatMessageView[]>(loadedMessages);
  const [pending, setPending] = useState<Pending[]>([]);
  // Loader data after a revalidation (a socket event, a form) joins what the page already shows.
  useEffect(() => setMessages((list) => (live ? merge(list, loadedMessages) : loadedMessages)), [loadedMessages, live]);

  const lastId = useRef(0);
  lastId.current = messages.length ? messages[messages.length - 1]!.id : 0;

  const catchUp = useCallback(async () => {
    const response = await fetch(`/api/v1/chats/${chatId}/messages?after=${lastId.current}&limit=100`, { credentials: 'same-origin' });
    if (!response.ok) return;
    const body = (await response.json()) as { data: { messages: ChatMessageView[] } };
    setMessages((list) => merge(list, body.data.messages));
  }, [chatId]);

  useEffect(() => {
    if (!live) return;
    const onMessage = (event: Event) => {
      const message = (event as CustomEvent<ChatMessageView>).detail;
      if (message.chatId !== chatId) return;
      setMessages((list) => merge(list, [message]));
      setPending((list) => list.filter((p) => p.clientId !== message.clientId));
    };
    const onRead = (event: Event) => {
      const read = (event as CustomEvent<MessageReadEvent>).detail;
      if (read.chatId !== chatId || read.readerId === viewerId) return;
      setMessages((list) => list.map((m) => (m.senderId === viewerId && m.id <= read.upToId && !m.readAt ? { ...m, readAt: read.readAt } : m)));
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
  }, [chatId, viewerId, live, catchUp]);

  return { messages, setMessages, pending, setPending };
}

/** Leaving a step that asks first: with JS the step closes in place; without, a link back to the conversation. */
function CancelStep({ chatId, onCancel }: { chatId: number | string; onCancel?: () => void }) {
  const { t } = useTranslation();
  return onCancel ? (
    <button type="button" className="button button-secondary" onClick={onCancel}>
      {t('chat.conversation.cancel')}
    </button>
  ) : (
    <Link to={`/chat/${chatId}`} className="button button-secondary">
      {t('chat.conversation.cancel')}
    </Link>
  );
}

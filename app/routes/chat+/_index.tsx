import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { Avatar } from '~/components/avatar';
import { requireUser } from '~/http/session.server';
import type { I18nHandle } from '~/i18n/bundles';
import { getFixedT } from '~/i18n/i18n.server';
import { formatTaipeiDateTime } from '~/lib/dates';
import { pageMeta } from '~/lib/meta';
import { listChats } from '~/services/messaging/chats.server';

/** /chat (SPEC §2, issue 23): the viewer's conversations, newest activity first. */
export const handle: I18nHandle = { i18n: ['chat'] };

export async function loader({ request }: LoaderFunctionArgs) {
  const { user } = await requireUser(request);
  const [list, t] = await Promise.all([listChats(user), getFixedT(request)]);
  return { ...list, viewerId: user.id, title: t('chat.title') };
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(matches, data?.title);

export default function ChatList() {
  const { chats, viewerId } = useLoaderData<typeof loader>();
  const { t, i18n } = useTranslation();
  return (
    <div className="chat-page">
      <h1>{t('chat.title')}</h1>
      <p>
        <Link to="/board">{t('chat.list.board')}</Link>
      </p>
      {chats.length === 0 ? (
        <p className="muted">{t('chat.list.empty')}</p>
      ) : (
        <ul className="chat-list" data-testid="chat-list">
          {chats.map((chat) => (
            <li key={chat.id} className="chat-item">
              <Link to={`/chat/${chat.id}`} aria-label={t('chat.list.open', { name: chat.other.name })}>
                <Avatar src={chat.other.avatar} alt="" size={44} />
                <span className="chat-item-text">
                  <strong>{chat.other.name}</strong>
                  <p className="muted">
                    {chat.lastMessage
                      ? `${chat.lastMessage.senderId === viewerId ? t('chat.list.you') : ''}${chat.lastMessage.hidden && !chat.lastMessage.text ? t('chat.conversation.removed') : chat.lastMessage.text}`
                      : t('chat.list.noMessages')}
                  </p>
                </span>
                <span className="chat-item-meta">
                  {chat.lastMessageAt ? (
                    <time dateTime={chat.lastMessageAt} className="muted">
                      {formatTaipeiDateTime(chat.lastMessageAt, i18n.language)}
                    </time>
                  ) : null}
                  {chat.unreadCount > 0 ? (
                    <span className="chat-unread" data-testid="chat-unread">
                      {t('chat.list.unread', { count: chat.unreadCount })}
                    </span>
                  ) : null}
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

import ReactMarkdown from 'react-markdown';
import { safeMarkdownUrl } from '~/lib/safe-url';

/**
 * Markdown from the database (legal texts). Raw HTML is not rendered (react-markdown's default) and links
 * keep only the schemes SPEC §5 allows; a `javascript:` link renders as text without an href.
 * Imported only by the routes that render markdown, so its weight stays in their chunks.
 */
export function Markdown({ children }: { children: string }) {
  return (
    <div className="prose">
      <ReactMarkdown
        urlTransform={(url) => safeMarkdownUrl(url)}
        components={{
          a: ({ href, children: text }) =>
            href ? (
              <a href={href} rel={/^https?:/i.test(href) ? 'noopener noreferrer' : undefined}>
                {text}
              </a>
            ) : (
              <span className="unsafe-link">{text}</span>
            ),
        }}
      >
        {children}
      </ReactMarkdown>
    </div>
  );
}

'use client';

import { memo, useMemo } from 'react';
import ReactMarkdown, { type Components } from 'react-markdown';
import rehypeSanitize from 'rehype-sanitize';
import remarkGfm from 'remark-gfm';
import { CodeBlock } from './code-block';
import { remarkHtmlAsText } from './html-as-text';
import { RemoteImage } from './remote-image';
import { needsHighlighting, useCodeHighlighter } from './use-code-highlighter';
import './markdown.css';

/*
 * Model output is untrusted. Raw HTML in it is shown as text (remarkHtmlAsText; rehype-raw
 * is never used), and rehype-sanitize runs on the tree before anything else, with GitHub's
 * allow-list: no scripts, no event handlers, no javascript: URLs.
 * Highlighting runs after sanitising so its `hljs-*` classes survive; the sanitiser keeps
 * the `language-*` class highlight.js needs to pick the language.
 * Images never load by themselves from a host the operator did not allow (remote-image.tsx).
 */
const remarkPlugins = [remarkGfm, remarkHtmlAsText];

const components: Components = {
  // Links from a model open in a new tab and never get the opener or a referrer.
  a: ({ node: _node, ...props }) => <a {...props} target="_blank" rel="noopener noreferrer nofollow" />,
  pre: ({ node: _node, ...props }) => <CodeBlock {...props} />,
  // Images wait for a click unless their host is on the operator's list (remote-image.tsx).
  img: RemoteImage,
  // Wide tables scroll inside the message instead of widening the page on a phone.
  table: ({ node: _node, ...props }) => (
    <div className="markdown-table">
      <table {...props} />
    </div>
  ),
};

/**
 * Renders markdown (GitHub flavour: tables, task lists, strikethrough, autolinks) safely,
 * with highlighted code blocks. Memoised because a streaming transcript re-renders on
 * every token and only the growing message has new text.
 */
export const Markdown = memo(function Markdown({ children }: { children: string }) {
  const highlighter = useCodeHighlighter(needsHighlighting(children));
  const rehypePlugins = useMemo(() => (highlighter ? [rehypeSanitize, highlighter] : [rehypeSanitize]), [highlighter]);
  return (
    <div className="markdown">
      <ReactMarkdown remarkPlugins={remarkPlugins} rehypePlugins={rehypePlugins} components={components}>
        {children}
      </ReactMarkdown>
    </div>
  );
});

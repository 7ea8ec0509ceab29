/** The few fields of a markdown syntax tree node this plugin touches. */
interface MarkdownNode {
  type: string;
  value?: string;
  children?: MarkdownNode[];
}

/**
 * A remark plugin that shows raw HTML in model output as the literal text it is, instead
 * of dropping it: an answer about HTML keeps its `<div>`s readable, and nothing in it
 * can ever become an element (sanitising still runs afterwards as the second guard).
 */
export function remarkHtmlAsText() {
  return (tree: MarkdownNode) => {
    const walk = (node: MarkdownNode) => {
      if (node.type === 'html') node.type = 'text';
      node.children?.forEach(walk);
    };
    walk(tree);
  };
}

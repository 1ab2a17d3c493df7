// A new HTML element with properties (className, textContent, type, …; `dataset` and `attrs` objects too) and
// children (elements or text).
export function html(tag, props = {}, ...children) {
  const {dataset = {}, attrs = {}, ...rest} = props;
  const node = Object.assign(document.createElement(tag), rest);
  Object.assign(node.dataset, dataset);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  node.append(...children);
  return node;
}

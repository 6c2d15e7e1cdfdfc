// The two helpers every panel paints with.

/** The page's element of that id. */
export const $ = (id) => document.getElementById(id);

/** A new element: its attributes (className, dataset entries as data-*), then its children (nodes or text). */
export function el(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (name === 'className') {
      element.className = value;
    } else if (value !== null && value !== undefined && value !== false) {
      element.setAttribute(name, value === true ? '' : String(value));
    }
  }
  element.append(...children.filter((child) => child !== null && child !== undefined));
  return element;
}

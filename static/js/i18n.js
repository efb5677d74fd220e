// UI strings: a lookup with {placeholders}, and applying a table to the elements of a root that
// name their string with data-i18n (text), data-i18n-title, data-i18n-label (aria-label) or
// data-i18n-placeholder. The lookup is pure; applyStrings touches only the root it is given.

/**
 * @param {Object<string,string>} strings @param {string} key @param {Object} [params]
 * @returns {string} the string with {name} replaced; the key itself when the table lacks it,
 * so a missing translation is visible rather than blank.
 */
export function tr(strings, key, params = {}) {
  const text = strings && Object.prototype.hasOwnProperty.call(strings, key) ? strings[key] : key;
  return text.replace(/\{(\w+)\}/g, (m, name) => (name in params ? String(params[name]) : m));
}

const ATTRS = [['i18nTitle', 'title'], ['i18nLabel', 'aria-label'],
  ['i18nPlaceholder', 'placeholder']];

/** Rewrite every labelled element under `root` in the language of `strings`. */
export function applyStrings(root, strings) {
  for (const el of root.querySelectorAll('[data-i18n]')) {
    el.textContent = tr(strings, el.dataset.i18n);
  }
  for (const [data, attr] of ATTRS) {
    const sel = `[data-${data.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}]`;
    for (const el of root.querySelectorAll(sel)) el.setAttribute(attr, tr(strings, el.dataset[data]));
  }
}

// The keyboard help: `?` (outside a text field) or the ? button opens the <dialog> every page
// carries (templates/partials/help.html); Escape or Close shuts it and focus returns to where
// it was (the dialog element does both). Only the document given is touched.

/** True when a key press belongs to a text field rather than to the page. */
export function typingIn(target) {
  const tag = target && target.tagName;
  return tag === 'TEXTAREA' || tag === 'SELECT' || (tag === 'INPUT' && target.type !== 'range');
}

/** @param {Document} doc */
export function installHelp(doc) {
  const dialog = /** @type {HTMLDialogElement|null} */ (doc.getElementById('help'));
  if (!dialog) return null;
  const open = () => { if (!dialog.open) dialog.showModal(); };
  doc.getElementById('help-close').addEventListener('click', () => dialog.close());
  for (const button of doc.querySelectorAll('[data-help-open]')) button.addEventListener('click', open);
  doc.addEventListener('keydown', (e) => {
    if (e.key !== '?' || e.ctrlKey || e.metaKey || e.altKey || typingIn(e.target)) return;
    e.preventDefault();
    open();
  });
  return { open, close: () => dialog.close() };
}

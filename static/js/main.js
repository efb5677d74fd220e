// Entry point of the app page: find the player's root and start the page. No logic here.
import { startApp } from './app_page.js';
import { installHelp } from './help.js';

const root = /** @type {HTMLElement|null} */ (document.querySelector('[data-gs-player]'));
installHelp(document);
if (root) startApp(document, root);

// Entry point of the app page: find the player's root and start the page. No logic here.
import { startApp } from './app_page.js';

const root = /** @type {HTMLElement|null} */ (document.querySelector('[data-gs-player]'));
if (root) startApp(document, root);

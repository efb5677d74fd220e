// Entry point of the lessons index: the page is plain HTML; only the keyboard help needs code.
import { installHelp } from './help.js';

installHelp(document);

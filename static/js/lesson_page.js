// Entry point of a lesson page: mount the player beside the lesson text, load the lesson's
// run (program, trace, layout) and make each "watch for" pointer jump to the step it names.
import * as api from './api.js';
import { mountPlayer } from './mount.js';
import { tr } from './i18n.js';
import { installHelp } from './help.js';
import { wireStory } from './lesson_story.js';
import { waitsForRun, showWaitForRun, nextRunPress } from './wait_for_run.js';

/** The step index of the event with this seq, or -1. Steps are the trace's events in order. */
export function stepOfSeq(events, seq) {
  if (seq === null || seq === undefined) return -1;
  return events.findIndex((e) => e.seq === seq);
}

async function start(doc) {
  const page = doc.getElementById('lesson');
  const root = page && page.querySelector('[data-gs-player]');
  if (!root) return;
  const strings = JSON.parse(doc.getElementById('gs-strings').textContent || '{}');
  const lang = doc.documentElement.dataset.lang || 'en';
  /** @type {(index:number) => void} */
  let onStep = () => {};
  const player = mountPlayer(root, { strings, lang, onStep: (i) => onStep(i) });
  doc.addEventListener('keydown', (e) => { player.handleKey(e); });

  if (waitsForRun(page)) {        // a teacher's lesson file, on a server without OS layers
    const { program } = await api.lesson(page.dataset.lessonId, lang);
    player.editor.value = program;
    const done = showWaitForRun(root, strings, 'lesson');
    await nextRunPress(/** @type {HTMLElement} */ (root.querySelector('#run')));
    done();
  }
  const { lesson, run } = await api.lessonRun(page.dataset.lessonId, lang);
  player.editor.value = lesson.program;
  // the program pane is as wide as the program's longest line (static/css/lessons.css)
  const longest = Math.max(...lesson.program.split('\n').map((l) => l.length));
  root.style.setProperty('--code-chars', String(Math.max(40, longest + 1)));
  // a lesson's picture may be big: it is built a task at a time, the page free meanwhile
  await player.loadInTurns(run, 0);
  root.dataset.runs = String(Number(root.dataset.runs || 0) + 1);

  const events = run.trace ? run.trace.events : [];
  onStep = wireStory(page, player, lesson, (seq) => stepOfSeq(events, seq), strings);
  for (const button of page.querySelectorAll('[data-watch]')) {
    const pointer = lesson.watch[Number(button.dataset.watch)];
    const index = stepOfSeq(events, pointer ? pointer.seq : null);
    if (index < 0) {
      button.title = tr(strings, 'watch_missing');
      continue;
    }
    button.dataset.step = String(index);
    button.disabled = false;
    button.addEventListener('click', () => {
      player.player.go(index);
      root.querySelector('#graph').focus({ preventScroll: true });
    });
  }
}

if (typeof document !== 'undefined') {
  installHelp(document);
  start(document);
}

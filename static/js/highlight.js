// Python syntax colouring for the editor overlay: source → a list of [class, text] tokens per
// line. A small regex tokenizer (strings, comments, numbers, keywords, builtins, the torch
// names a learner meets) is enough to make a snippet readable; it never needs to parse.

const KEYWORDS = new Set(('False None True and as assert break class continue def del elif else '
  + 'except finally for from global if import in is lambda nonlocal not or pass raise return try '
  + 'while with yield').split(' '));
const BUILTINS = new Set('print range len float int list tuple dict enumerate zip sum abs min max isinstance type'.split(' '));

const TOKEN = /(#.*$)|("""[\s\S]*?"""|'''[\s\S]*?'''|"(?:\\.|[^"\\\n])*"?|'(?:\\.|[^'\\\n])*'?)|(\b\d[\d_]*\.?\d*(?:e[+-]?\d+)?j?\b|\.\d+(?:e[+-]?\d+)?)|([A-Za-z_]\w*)|(\s+)|([^\sA-Za-z_\d#"']+)/gm;

/**
 * @param {string} source
 * @returns {Array<Array<[string, string]>>} for each line, its tokens as [cssClass, text];
 *   an empty class is plain text. Joining a line's texts gives the line back.
 */
export function tokenize(source) {
  const lines = [[]];
  let m;
  TOKEN.lastIndex = 0;
  let prev = '';
  while ((m = TOKEN.exec(source)) !== null) {
    if (m[0] === '') { TOKEN.lastIndex++; continue; }
    let cls = '';
    if (m[1]) cls = 'tok-comment';
    else if (m[2]) cls = 'tok-string';
    else if (m[3]) cls = 'tok-number';
    else if (m[4]) {
      if (KEYWORDS.has(m[4])) cls = 'tok-keyword';
      else if (BUILTINS.has(m[4])) cls = 'tok-builtin';
      else if (prev.endsWith('.')) cls = 'tok-attr';
      else if (m[4] === 'torch') cls = 'tok-torch';
    }
    // split on newlines so that each line can be drawn on its own row
    m[0].split('\n').forEach((piece, i) => {
      if (i > 0) lines.push([]);
      if (piece) lines[lines.length - 1].push([cls, piece]);
    });
    if (!/^\s+$/.test(m[0])) prev = m[0];
  }
  return lines;
}

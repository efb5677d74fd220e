// Downloads: the graph as it looks at this step (SVG, or PNG drawn from that SVG) and the run's
// trace as JSON. The SVG carries the page's graph rules in a <style>, so it looks the same
// opened on its own.

/** Save `blob` as a file called `name` (the browser's download). */
export function download(blob, name) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

function graphRules() {
  const rules = [];
  for (const sheet of document.styleSheets) {
    let list;
    try { list = sheet.cssRules; } catch { continue; }
    for (const r of list) {
      if (r.selectorText && /\.gs-|\.graph-svg|\.node|\.edge/.test(r.selectorText)) rules.push(r.cssText);
    }
  }
  // custom properties the rules use, resolved to this page's values
  const cs = getComputedStyle(document.documentElement);
  const vars = [...cs].filter((p) => p.startsWith('--')).map((p) => `${p}:${cs.getPropertyValue(p)}`);
  return `svg{${vars.join(';')}}\n${rules.join('\n')}`;
}

/** A standalone copy of the graph's SVG. @param {SVGSVGElement} svg */
export function svgText(svg) {
  const copy = /** @type {SVGSVGElement} */ (svg.cloneNode(true));
  copy.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
  copy.removeAttribute('style');        // the on-screen pan and zoom is not part of the picture
  const [, , w, h] = (copy.getAttribute('viewBox') || '0 0 400 300').split(/\s+/).map(Number);
  copy.setAttribute('width', String(Math.round(w)));
  copy.setAttribute('height', String(Math.round(h)));
  const style = document.createElementNS('http://www.w3.org/2000/svg', 'style');
  style.textContent = graphRules();
  copy.prepend(style);
  return new XMLSerializer().serializeToString(copy);
}

export function exportSvg(svg, name = 'gradstep-graph.svg') {
  download(new Blob([svgText(svg)], { type: 'image/svg+xml' }), name);
}

/** Rasterise at 2× for sharp slides. */
export async function exportPng(svg, name = 'gradstep-graph.png') {
  const text = svgText(svg);
  const url = URL.createObjectURL(new Blob([text], { type: 'image/svg+xml' }));
  try {
    const img = new Image();
    await new Promise((ok, fail) => { img.onload = ok; img.onerror = fail; img.src = url; });
    const canvas = document.createElement('canvas');
    canvas.width = img.width * 2;
    canvas.height = img.height * 2;
    const ctx = canvas.getContext('2d');
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    ctx.drawImage(img, 0, 0, canvas.width, canvas.height);
    const blob = await new Promise((ok) => canvas.toBlob(ok, 'image/png'));
    download(blob, name);
  } finally {
    URL.revokeObjectURL(url);
  }
}

export function exportJson(answer, name = 'gradstep-trace.json') {
  download(new Blob([JSON.stringify(answer.trace, null, 1)], { type: 'application/json' }), name);
}

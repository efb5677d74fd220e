// The fold of forward mode (docs/trace-format.md, section 14): the tangent each tensor made
// inside a dual level carries, and whether a level is open. Leaving the level drops every
// tangent, as forward_ad.exit_dual_level does. Pure data code like trace.js, whose fold calls
// these; `tangents` is replaced, never written into, so earlier states stay as they were.

/** An op event's output tangent, kept for the output's box and the inspector. */
export function noteTangent(d, ev) {
  if (ev.tangent) d.tangents = { ...d.tangents, [ev.output.id]: ev.tangent };
}

export const TANGENT_HANDLERS = {
  dual_level(d, ev) {
    d.dual = ev.entered;
    if (!ev.entered) d.tangents = {};
  },
};

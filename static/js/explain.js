// A plain-language explanation next to PyTorch's verbatim error text. Pure: the message is
// matched against known PyTorch wordings and the answer is a key into the UI string table.

/** @type {Array<[RegExp, string]>} */
const PATTERNS = [
  [/backward through the graph a second time/, 'explain.second_backward'],
  [/grad can be implicitly created only for (real )?scalar outputs/, 'explain.scalar_only'],
  [/does not require grad and does not have a grad_fn/, 'explain.no_grad_fn'],
  [/a leaf Variable that requires grad is being used in an in-place operation/, 'explain.leaf_inplace'],
  [/modified by an inplace operation/, 'explain.inplace_modified'],
  [/One of the differentiated Tensors appears to not have been used in the graph/, 'explain.unused'],
  [/Mismatch in shape/, 'explain.shape_mismatch'],
  [/size of tensor a \(\d+\) must match the size of tensor b/, 'explain.broadcast'],
  [/mat1 and mat2 shapes cannot be multiplied/, 'explain.matmul_shapes'],
  [/Can't call numpy\(\) on Tensor that requires grad/, 'explain.numpy_grad'],
  [/only Tensors of floating point .*dtype can require gradients/, 'explain.int_grad'],
];

const KINDS = { refused: 'explain.refused', limit: 'explain.limit', crash: 'explain.crash' };

// the time limits, told apart: the CPU limit is the program's own cost, the wall clock the
// server's business (runner/limits.py)
/** @type {Array<[RegExp, string]>} */
const TIME_LIMITS = [[/CPU time limit exceeded/, 'explain.limit_cpu'],
  [/wall time limit exceeded/, 'explain.limit_wall']];

// errors only the language raises, for traces and results recorded before `origin` existed
const PYTHON_TYPES = new Set(['SyntaxError', 'IndentationError', 'TabError', 'NameError',
  'UnboundLocalError']);

/**
 * Who raised the error, for its heading: 'pytorch', 'python' or 'gradstep' (a limit, a
 * refusal: PyTorch would have run the program).
 * @param {{type?:string, error_kind?:string, kind?:string, origin?:string}} error
 */
export function errorOrigin(error) {
  if (error.origin) return error.origin;
  const kind = error.error_kind || error.kind;
  if (kind && kind !== 'exception') return 'gradstep';
  return PYTHON_TYPES.has(error.type) ? 'python' : 'pytorch';
}

/** The message as the learner should read it: Python names the file it compiled ("main.py",
 * which the learner never saw) in a SyntaxError; the heading already gives the line. */
export function learnerMessage(error) {
  const message = error.message || '';
  return errorOrigin(error) === 'python'
    ? message.replace(/\s*\([^()]*\.py, line (\d+)\)/, ' (line $1)') : message;
}

/**
 * @param {{type?:string, message?:string, error_kind?:string, kind?:string}} error
 * @returns {string|null} a string key, or null when there is nothing better than the text.
 */
export function explanationKey(error) {
  if (!error) return null;
  const kind = error.error_kind || error.kind;
  const message = error.message || '';
  if (kind === 'limit') {
    for (const [pattern, key] of TIME_LIMITS) if (pattern.test(message)) return key;
  }
  if (KINDS[kind]) return KINDS[kind];
  for (const [pattern, key] of PATTERNS) if (pattern.test(message)) return key;
  if (error.type === 'NameError') return 'explain.name_error';
  if (error.type === 'SyntaxError' || error.type === 'IndentationError') return 'explain.syntax';
  return null;
}

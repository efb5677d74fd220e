// Permalinks and the editor's tokenizer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { encodeProgram, decodeProgram, parseLocation, buildHash } from '../../../static/js/permalink.js';
import { tokenize } from '../../../static/js/highlight.js';

const PROGRAM = 'import torch\nx = torch.ones(2, requires_grad=True)  # 叶子\n(x * 3).sum().backward()\n';

test('a program survives compression into the fragment and back', async () => {
  const z = await encodeProgram(PROGRAM);
  assert.match(z, /^[A-Za-z0-9_-]+$/);
  assert.equal(await decodeProgram(z), PROGRAM);
  const long = PROGRAM.repeat(50);
  assert.ok((await encodeProgram(long)).length < long.length / 4);
  assert.equal(await decodeProgram(await encodeProgram(long)), long);
});

test('the fragment wins over ?code=, and step and lang are read', async () => {
  const z = await encodeProgram(PROGRAM);
  assert.deepEqual(parseLocation('?lang=zh', buildHash(z, 7)), { z, step: 7, lang: 'zh' });
  assert.deepEqual(parseLocation('?code=print(1)', ''), { code: 'print(1)' });
  assert.deepEqual(parseLocation('?code=a', '#code=b'), { code: 'b' });
  assert.deepEqual(parseLocation('?lang=fr&step=x', ''), {});
});

test('tokenize keeps the text and colours Python', () => {
  const lines = tokenize(PROGRAM);
  assert.equal(lines.map((l) => l.map(([, t]) => t).join('')).join('\n'), PROGRAM);
  const classes = Object.fromEntries(lines.flat().map(([c, t]) => [t.trim(), c]));
  assert.equal(classes.import, 'tok-keyword');
  assert.equal(classes.torch, 'tok-torch');
  assert.equal(classes['3'], 'tok-number');
  assert.equal(classes.True, 'tok-keyword');
  assert.equal(classes['# 叶子'], 'tok-comment');
  assert.equal(classes.backward, 'tok-attr');
});

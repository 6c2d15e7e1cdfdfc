// Which layout a clip gets: the video box for a clip with a picture, the audio layout (controls,
// no black box) for one whose /player/info says it has only audio.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { hasVideo, pathOf } from '../../main/resources/io/rondo/client/player/library.js';

const PLAYER = new URL('../../main/resources/io/rondo/client/player/', import.meta.url);

test('a clip whose MSE type is audio has no picture to show', () => {
  assert.equal(hasVideo({ kind: 'continuous', mimeType: 'audio/mp4', mseType: 'audio/mp4; codecs="mp4a.40.2"' }),
    false);
  assert.equal(hasVideo({ kind: 'continuous', mimeType: 'audio/webm', mseType: 'audio/webm; codecs="opus"' }), false);
  assert.equal(hasVideo({ kind: 'continuous', mimeType: 'audio/mpeg', mseType: 'audio/mpeg' }), false);
});

test('a clip with a video track, with or without sound, keeps the video box', () => {
  assert.equal(hasVideo({ mimeType: 'video/mp4', mseType: 'video/mp4; codecs="avc1.64001f, mp4a.40.2"' }), true);
  assert.equal(hasVideo({ mimeType: 'video/webm', mseType: 'video/webm; codecs="vp9"' }), true);
  assert.equal(hasVideo({ mimeType: 'video/mp4' }), true, 'no MSE type: the MIME type decides');
});

test('the audio layout hides the video box and keeps the controls in view', () => {
  const css = readFileSync(new URL('player.css', PLAYER), 'utf8');
  assert.match(css, /\.stage\.audio-only video, \.stage\.audio-only #fullscreen \{ display: none; \}/);
  assert.match(css, /\.stage\.audio-only \{ aspect-ratio: auto;/);
  const view = readFileSync(new URL('view.js', PLAYER), 'utf8');
  assert.match(view, /classList\.toggle\('audio-only', !hasVideo\(info\)\)/);
});

test('a name is a URL path, each segment encoded', () => {
  assert.equal(pathOf('/music/my song [live].mp3'), '/music/my%20song%20%5Blive%5D.mp3');
});

// The server installs only the files files.txt lists (PlayerFiles): a module the page imports
// and the list forgets would be a 404, and the player would not start.

import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';

const PLAYER = new URL('../../main/resources/io/rondo/client/player/', import.meta.url);

const shipped = readFileSync(new URL('files.txt', PLAYER), 'utf8').split('\n').map((line) => line.trim())
  .filter((line) => line && !line.startsWith('#'));

/** The modules the pages load: player.js and record.js and, transitively, what each imports. */
function loaded() {
  const seen = new Set();
  const visit = (file) => {
    if (seen.has(file)) {
      return;
    }
    seen.add(file);
    const source = readFileSync(new URL(file, PLAYER), 'utf8');
    for (const [, imported] of source.matchAll(/^import .* from '\.\/([^']+)';$/gm)) {
      visit(imported);
    }
  };
  visit('player.js');
  visit('record.js');
  return [...seen].sort();
}

test('every module the page loads is shipped', () => {
  const modules = loaded();
  assert.ok(modules.length > 5, `player.js imports its modules: ${modules}`);
  assert.deepEqual(modules.filter((file) => !shipped.includes(file)), []);
});

test('every script in the player\'s folder is loaded by the page, and every shipped file exists', () => {
  const scripts = readdirSync(PLAYER).filter((file) => file.endsWith('.js')).sort();
  assert.deepEqual(scripts, loaded());
  const present = readdirSync(PLAYER);
  assert.deepEqual(shipped.filter((file) => !present.includes(file)), []);
});

test('the page loads player.js as a module', () => {
  assert.match(readFileSync(new URL('index.html', PLAYER), 'utf8'), /<script type="module" src="player.js"><\/script>/);
});

test('the record page loads record.js as a module, and the player links to it', () => {
  assert.match(readFileSync(new URL('record.html', PLAYER), 'utf8'), /<script type="module" src="record.js"><\/script>/);
  assert.match(readFileSync(new URL('index.html', PLAYER), 'utf8'), /href="record.html"/);
});
